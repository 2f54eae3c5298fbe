// file_byte_watch.hpp: where a file divergence was written (tools/across_runs/file_divergence.hpp).
// Two runs of a session left one file different, first at one byte; the driver runs each seed
// again watching that byte (the options watch_file and watch_byte). The processes of a run take
// turns only inside BSPlib calls, so whatever reaches a file between two calls of the running
// process is that process's doing, after the earlier call: looking at the byte at the start of
// every call names the process, its superstep and its last BSPlib call before the write. The
// run ends by printing the last change it saw on standard error (kFileWatchAnswer), which the
// driver reads. A FILE's buffer reaches the file when it is flushed (fflush, fclose, exit), and
// that is when the watch sees it.
#pragma once

#include <cstdint>

namespace bspcheck::rt {

// The tag of the run's answer, one line on stderr:
//   "bsp-check file watch: changed <pid> <superstep> <line> <call> <file>"  (file: the call's
//   source file, last because it may hold spaces; line 0 and file "-" when unknown), or
//   "bsp-check file watch: unchanged".
inline constexpr const char* kFileWatchAnswer = "bsp-check file watch: ";

extern bool g_file_watch_on;  // a run watches (read on every BSPlib call: one predictable branch)

// Starts watching byte `offset` of `path` (as the run sees it), from its state now.
void start_file_watch(const char* path, std::uint64_t offset);

// At the start of a BSPlib call of process `pid` in `superstep`: `call`, `file`, `line` are the
// process's previous call (null call: none since bsp_begin). Called only when g_file_watch_on.
void file_watch_look(int pid, int superstep, const char* call, const char* file, int line);

// At the end of the run: the C library's streams flushed, one last look (what process `pid` wrote
// after `call`), and the answer printed. Once; nothing when the run does not watch.
void finish_file_watch(int pid, int superstep, const char* call, const char* file, int line);

}  // namespace bspcheck::rt
