// file_byte_watch.hpp: where a file divergence was written (tools/across_runs/file_divergence.hpp).
// Two runs of a session left one file different, first at one byte; the driver runs each seed
// again watching that byte (the options watch_file and watch_byte). The processes of a run take
// turns only inside BSPlib calls, so whatever reaches a file between two calls of the running
// process is that process's doing, after the earlier call: looking at the byte at the start of
// every call names the process, its superstep and its last BSPlib call before the write. The
// run ends by printing the last change it saw on standard error (kFileWatchAnswer), which the
// driver reads. A FILE's buffer reaches the file when it is flushed (fflush, fclose, exit), and
// that is when the watch sees it. The kept trace of such a divergence holds the reference run's
// byte (expect_file): its replay watches the byte the same way and checks how it ends.
#pragma once

#include <cstdint>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::rt {

// The tag of the run's answer, one line on stderr:
//   "bsp-check file watch: changed <pid> <superstep> <line> <call> <file>"  (file: the call's
//   source file, last because it may hold spaces; line 0 and file "-" when unknown), or
//   "bsp-check file watch: unchanged".
inline constexpr const char* kFileWatchAnswer = "bsp-check file watch: ";

extern bool g_file_watch_on;  // a run watches (read on every BSPlib call: one predictable branch)

// The byte's state: 0 to 255, or one of these (as Options::expected_file says them).
inline constexpr int kFileEndsBefore = ExpectedFileByte::kFileEndsBefore, kFileAbsent = ExpectedFileByte::kFileAbsent;

// Locating (watch_file, watch_byte): starts watching byte `offset` of `path` (as the run sees it)
// from its state now; the run's end prints the answer.
void start_file_watch(const char* path, std::uint64_t offset);

// A kept trace's expectation (expect_file): byte `offset` of the file kept as `kept_name`
// (cwd/order.txt: resolved under the run's own working directory, /tmp or $TMPDIR) must end as
// `state`, the reference run's. Watched like the above; the run's end says whether it does.
void start_file_expectation(const char* kept_name, std::uint64_t offset, int state);

// At the start of a BSPlib call of process `pid` in `superstep`: `call`, `file`, `line` are the
// process's previous call (null call: none since bsp_begin). Called only when g_file_watch_on.
void file_watch_look(int pid, int superstep, const char* call, const char* file, int line);

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
// Once; false when the run does not watch.
bool finish_file_watch(int pid, int superstep, const char* call, const char* file, int line,
                       const FileByteChange** last, int* state);

}  // namespace bspcheck::rt
