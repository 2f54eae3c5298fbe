// file_view.hpp: each run's private view of the files it may write (issue 42). A run the driver
// starts sees the working directory's tree, /tmp and $TMPDIR as they were when the session
// started; what it creates, changes, renames or removes there lands in a layer of its own (an
// overlay whose upper directory is on a tmpfs), seen by all its processes (they are one OS
// process) and by no other run, beside it (-j) or after it. The user's files are never written:
// the layer lives in memory and goes with the run's mount namespace, even when the run crashes or
// the session is killed.
//
// How: the process the driver starts (a program started per run, or a fork server) enters a
// mount namespace of its own when the library loads (inside a user namespace of its own where it
// lacks the privilege for a plain one), takes a detached copy of each covered directory as it is
// (open_tree), and lays a fresh overlay over each before main runs. A fork server's run (a
// forked child, or each run of a worker) goes back to the server's namespace, enters a new one,
// and lays its own overlay over the real directory and what the server's main wrote before
// bsp_begin. The runtime's own files reach the session's file system through
// runtime/base/outside_files.hpp. docs/semantics.md says what is covered and what is not;
// docs/performance.md what it costs.
#pragma once

namespace bspcheck::rt {

// The variable through which the driver asks for the view: "private" (make one), "refuse" (act
// as if the kernel refused it: the fallback's test), kFileViewProbe (make one, say on standard
// output whether it was made, "private", or why not, and end before the program's code runs),
// kFileViewRequire (make one, or end with kFileViewRefusedStatus before the program's code runs:
// a run that must not share the real directories, as the determinism check's run beside the
// run it checks). Taken out of the environment at load.
inline constexpr const char* kFileViewEnvironment = "BSPCHECK_FILE_VIEW";
inline constexpr const char* kFileViewProbe = "probe";
inline constexpr const char* kFileViewRequire = "require";  // as long as "private": the same environment
inline constexpr int kFileViewRefusedStatus = 121;
// How the probe's answer starts ("private", or the refusal follows): output without it is not one.
inline constexpr const char* kFileViewProbeAnswer = "bsp-check file view: ";

// In a forked child of a fork server, before it saves bsp_begin: its own view, over the real
// directories and the server's. Does nothing where the session has no view.
void begin_run_file_view();

// Whether a run of this worker wrote in its view (its upper directories are not empty): the
// worker then ends, and a fresh one with a fresh view makes the next run. A worker whose runs
// write nothing keeps its view from run to run, at no cost (docs/performance.md).
bool file_view_written();

// Why the driver asked for a private view and this process has none (a sentence for the
// session's summary), or nullptr: a view was made, or none was asked for.
const char* file_view_refusal();

// Whether this process's runs each see a private view.
bool file_view_private();

// The names a run's kept files give the covered directories (runtime/isolation/kept_files.hpp):
// the working directory, /tmp, $TMPDIR.
inline constexpr const char* kKeptRootNames[] = {"cwd", "tmp", "tmpdir"};

// One covered directory of the view and the layers that hold what was written in it: the
// process the driver started (before bsp_begin, or the whole run when it was started anew), and a
// fork server's run (-1 when the run is the started process itself). Both are directories on the
// view's tmpfs, outside any mount the run sees.
struct FileViewLayer {
  const char* name;  // kKeptRootNames
  const char* path;  // the directory's real path
  int session_upper;
  int run_upper;
};
// The view's covered directories (none where the process has no private view); returns how many.
int file_view_layers(FileViewLayer* out, int max);

// Every covered directory by its name, one that lies inside another's overlay too (the working
// directory under /tmp, say): a run's kept files are named from the innermost.
struct FileViewRoot {
  const char* name;  // kKeptRootNames
  const char* path;  // its real path
};
int file_view_roots(FileViewRoot* out, int max);

}  // namespace bspcheck::rt
