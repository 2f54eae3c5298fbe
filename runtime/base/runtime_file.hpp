// runtime_file.hpp: a file the runtime keeps open while the program runs (a trace being written
// or replayed, a choice log, the per-process globals' memfd), kept out of the program's way as a separate tool's would
// be: close-on-exec, so that the programs it starts do not inherit it, and at a descriptor at or above kRuntimeFdFloor,
// so that the program's own files get the numbers they would get outside (a program that opens a file expecting
// descriptor 3 still gets 3). Each is registered while open, so that a program that closes every descriptor above 2 (as
// daemons and some test harnesses do) leaves it open: the program's close, close_range and
// closefrom skip them (runtime/isolation/runtime_fds.cpp). The runtime closes its own through
// close_runtime_file and close_runtime_fd.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>

#include "runtime/base/outside_files.hpp"

namespace bspcheck::rt {

inline constexpr int kRuntimeFdFloor = 100;  // the fork server's channels start there too

// The descriptors the runtime keeps open, each as fd + 1 (0: a free slot); a handful at once
// (a trace, a replayed trace, a choice log, the globals' memfd). One per program: an inline
// variable of the runtime library (the driver, which compiles the trace code too, has its own).
inline constexpr int kKeptFdSlots = 16;
inline std::atomic<int> g_kept_fds[kKeptFdSlots];

inline void keep_runtime_fd(int fd) {
  if (fd < 0) return;
  for (std::atomic<int>& slot : g_kept_fds) {
    int free_slot = 0;
    if (slot.compare_exchange_strong(free_slot, fd + 1)) return;
  }
}

inline void release_runtime_fd(int fd) {
  for (std::atomic<int>& slot : g_kept_fds) {
    int kept = fd + 1;
    slot.compare_exchange_strong(kept, 0);
  }
}

inline bool is_runtime_fd(int fd) {
  for (const std::atomic<int>& slot : g_kept_fds)
    if (slot.load(std::memory_order_relaxed) == fd + 1) return true;
  return false;
}

// Moves a close-on-exec descriptor the runtime keeps to kRuntimeFdFloor or above; where none is
// free up there (a low RLIMIT_NOFILE), it stays where it is. Either way it is registered.
inline int out_of_the_way(int fd) {
  if (fd < 0) return fd;
  const int high = fd >= kRuntimeFdFloor ? fd : fcntl(fd, F_DUPFD_CLOEXEC, kRuntimeFdFloor);
  if (high < 0) {
    keep_runtime_fd(fd);
    return fd;
  }
  if (high != fd) close(fd);
  keep_runtime_fd(high);
  return high;
}

// Closes a descriptor of out_of_the_way, or a file of open_runtime_file.
inline int close_runtime_fd(int fd) {
  release_runtime_fd(fd);
  return close(fd);
}
inline int close_runtime_file(std::FILE* f) {
  release_runtime_fd(fileno(f));
  return std::fclose(f);
}

// Opens `path` to be written from its start, as O_TRUNC would, except that a file that is already
// empty is not truncated: ext4 takes a truncation to zero as a file about to be replaced and
// starts writing its pages to disk when it is closed (its auto_da_alloc), and a file that is
// then removed at once (the driver's temporary traces, which it creates empty to reserve their
// names) costs three to four times as much to remove: 3-4 ms against 1 ms for a trace of 10 MB
// (docs/performance.md, "Issue 47, goals 5 and 6: temporary traces ext4 wrote to disk"). A file
// with contents is still truncated. -1 and errno as open's on failure.
inline int open_runtime_fd_to_write(const char* path) {
  const int fd = open_outside(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) return fd;
  struct stat st {};
  const bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  if (regular && st.st_size == 0) return fd;
  if (ftruncate(fd, 0) != 0 && regular) {  // a FIFO or a device has nothing to truncate
    const int e = errno;
    close(fd);
    errno = e;
    return -1;
  }
  return fd;
}

// fopen's "r", "rb", "w" or "wb"; nullptr and errno as fopen's on failure.
inline std::FILE* open_runtime_file(const char* path, const char* mode) {
  const bool write = mode[0] == 'w';
  const int fd =
      out_of_the_way(write ? open_runtime_fd_to_write(path) : open_outside(path, O_RDONLY | O_CLOEXEC, 0666));
  if (fd < 0) return nullptr;
  std::FILE* f = fdopen(fd, mode);
  if (!f) {
    const int e = errno;
    close_runtime_fd(fd);
    errno = e;
  }
  return f;
}

}  // namespace bspcheck::rt
