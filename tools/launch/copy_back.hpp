// copy_back.hpp: the files of the run the user asked for (a single run of `bsp-check run`, and
// `replay`), put where the user looks (issue 42). The run wrote them in a private view of the
// working directory, /tmp and $TMPDIR (runtime/isolation/file_view.hpp), and kept them as it
// ended (runtime/isolation/kept_files.hpp); after the session's checks of it the driver writes
// them over the real directories, as if the program had run there itself, and removes what it
// removed.
//
// Never over the user's own change: a file or directory changed (its status change time) since
// the run began is left as it is, and the run's version stays in the kept directory, which the
// caller then names.
#pragma once

#include <time.h>

#include <string>
#include <vector>

namespace bspcheck::cli {

struct CopyBack {
  int written = 0;                     // files and links written, directories made
  int removed = 0;                     // entries removed
  std::vector<std::string> conflicts;  // real paths left as the user changed them
};

// The time a run begins, on the file systems' clock (coarse: what a change's time stamp reads).
timespec file_clock_now();

// Applies the run's kept directory `kept` (DIR/p<P>-s<SEED>) to the real directories it names
// (its roots.txt); entries changed since `since` are conflicts, left alone.
CopyBack copy_back_run_files(const std::string& kept, const timespec& since);

// Whether the kept directory holds any file or removal of the run (else it can go).
bool kept_files_empty(const std::string& kept);

}  // namespace bspcheck::cli
