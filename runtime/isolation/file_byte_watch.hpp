// file_byte_watch.hpp: where a file divergence was written (tools/across_runs/file_divergence.hpp).
// Two runs of a session left one file different, first at one byte; the driver runs each seed
// again watching that byte (the options watch_file and watch_byte). The processes of a run take
// turns only inside BSPlib calls, so whatever reaches a file between two calls of the running
// process is that process's doing, after the earlier call. The kernel says when the file changes
// (inotify on its directory, with a signal as the writing system call returns: the running
// process is the writer), so the BSPlib calls pay nothing for the watch; the byte is read then,
// and a change is charged to the running process, its superstep and its last BSPlib call. The
// run ends by printing the last change it saw on standard error (kFileWatchAnswer), which the
// driver reads. A write through a shared mapping makes no inotify event: it is seen at the end. A FILE's buffer reaches
// the file when it is flushed (fflush, fclose, exit), and that is when the watch sees it. The kept trace of such a
// divergence holds the reference run's byte (expect_file): its replay watches the byte the same way and checks how it
// ends.
#pragma once

#include <cstdint>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::rt {

// The tag of the run's answer, one line on stderr:
//   "bsp-check file watch: changed <pid> <superstep> <line> <call> <file>"  (file: the call's
//   source file, last because it may hold spaces; line 0 and file "-" when unknown), or
//   "bsp-check file watch: unchanged".
inline constexpr const char* kFileWatchAnswer = "bsp-check file watch: ";

extern bool g_file_watch_on;  // a run watches (from its start to finish_file_watch)

// Who is running when the file changes: the running process, its superstep and its last BSPlib
// call (null call: none since bsp_begin; null file: no source line). False when no process runs.
// Called from a signal handler: it only reads.
struct FileWatchCaller {
  int pid = -1, superstep = 0, line = 0;
  const char* call = nullptr;
  const char* file = nullptr;
};
using RunningCaller = bool (*)(FileWatchCaller*);
// The engine says how to ask (engine/core/world.cpp); until then a change is charged at the end.
void set_file_watch_caller(RunningCaller caller);

// The byte's state: 0 to 255, or one of these (as Options::expected_file says them).
inline constexpr int kFileEndsBefore = ExpectedFileByte::kFileEndsBefore, kFileAbsent = ExpectedFileByte::kFileAbsent;

// Locating (watch_file, watch_byte): starts watching byte `offset` of `path` (as the run sees it)
// from its state now; the run's end prints the answer.
void start_file_watch(const char* path, std::uint64_t offset);

// A kept trace's expectation (expect_file): byte `offset` of the file kept as `kept_name`
// (cwd/order.txt: resolved under the run's own working directory, /tmp or $TMPDIR) must end as
// `state`, the reference run's. Watched like the above; the run's end says whether it does.
void start_file_expectation(const char* kept_name, std::uint64_t offset, int state);

// The last change the watch saw (static storage).
struct FileByteChange {
  bool seen = false;
  int pid = -1, superstep = 0, line = 0;
  char call[64] = {};
  char file[1024] = {};  // "" when unknown
};

// At the end of the run: the C library's streams flushed, one last look (what process `pid` wrote
// after `call`), the locating answer printed. Returns true when an expectation is not met: the
// byte ends otherwise than the reference's (*last: the last change, *state: the byte's end).
// Once; false when the run does not watch (or watches no more).
bool finish_file_watch(int pid, int superstep, const char* call, const char* file, int line,
                       const FileByteChange** last, int* state);

}  // namespace bspcheck::rt
