// kept_files.hpp: a run's files, kept where the user can look at them (issue 42). What a run
// creates, changes or removes in its private view (runtime/isolation/file_view.hpp) lives in a
// layer that goes with the run; with keep_files=DIR (`--keep-files DIR`, and what the driver asks
// of a single run and of replay, whose files it copies back) the run copies that layer into
// DIR/p<P>-s<SEED>/ as it ends:
//   roots.txt    one line per covered directory: its name, a tab, its real path
//   cwd/ tmp/ tmpdir/   what the run wrote under the working directory, /tmp and $TMPDIR, each
//                file as the run left it (directories it made, symbolic links too)
//   removed.txt  what the run removed, one NAME/PATH a line (e.g. cwd/old.txt); absent if none
// A process without a private view (run directly, or where the kernel refused one) wrote the
// real directories: nothing to keep.
#pragma once

#include <cstdint>

namespace bspcheck::rt {

// Copies this run's layer into DIR/p<procs>-s<seed>/ (replacing one an earlier run left there;
// nothing, not even the folder, when the run wrote nothing),
// DIR taken in the session's file system (runtime/base/outside_files.hpp) and made if missing.
// Allocates nothing: it is also called on the way out of a crashed run.
void keep_run_files(const char* dir, int procs, std::uint64_t seed);

}  // namespace bspcheck::rt
