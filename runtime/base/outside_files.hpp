// outside_files.hpp: the runtime's own files (a run's report, its trace, a choice script or log,
// the output files a fork server's worker is told to write) opened in the file system as the
// session found it, not in the run's private view of it.
//
// A run the driver starts sees a private view of the working directory and the temporary
// directory (runtime/isolation/file_view.hpp): what it writes there lands in a layer of its own,
// seen by no other run. The files the driver reads back must land where the driver looks, so the
// runtime opens them through descriptors of the session's root and working directory, opened
// before the view was made: a path looked up from them walks the mounts the session started with,
// never the run's. Until a view is made (a program run directly, or where the view was refused)
// these are plain opens.
#pragma once

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>

namespace bspcheck::rt {

// The session's root and working directory (O_PATH), or -1 when no private view was made. One
// pair per program: inline variables of the runtime library.
inline std::atomic<int> g_outside_root{-1};
inline std::atomic<int> g_outside_cwd{-1};

// open(2) of `path` as the session found the file system: an absolute path from its root (and
// its absolute symbolic links resolved inside that root, not the run's), a relative one from its
// working directory.
inline int open_outside(const char* path, int flags, mode_t mode = 0) {
  const int root = g_outside_root.load(std::memory_order_relaxed);
  if (root < 0 || !path) return ::open(path, flags, mode);
  const bool absolute = path[0] == '/';
  while (*path == '/') ++path;
  if (!*path) path = ".";
  const int dir = absolute ? root : g_outside_cwd.load(std::memory_order_relaxed);
  open_how how{};
  how.flags = static_cast<unsigned long long>(flags);
  how.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0;
  how.resolve = absolute ? RESOLVE_IN_ROOT : 0;
  const long fd = syscall(SYS_openat2, dir, path, &how, sizeof how);
  if (fd >= 0 || (errno != ENOSYS && errno != EXDEV)) return static_cast<int>(fd);
  // Kernels before 5.6 (no openat2), and the magic links of /proc (the driver's memory files,
  // /proc/PID/fd/N), which RESOLVE_IN_ROOT refuses to follow: absolute links resolve in the view.
  return ::openat(dir, path, flags, mode);
}

// unlink(2) of `path` as the session found the file system (the probe of a report's path that
// the options make: removed from the run's view only, it would stay behind in the user's).
inline int unlink_outside(const char* path) {
  if (g_outside_root.load(std::memory_order_relaxed) < 0 || !path) return ::unlink(path);
  const char* slash = nullptr;
  for (const char* c = path; *c; ++c)
    if (*c == '/') slash = c;
  if (!slash) return ::unlinkat(g_outside_cwd.load(std::memory_order_relaxed), path, 0);
  char parent[4096];
  const auto n = static_cast<std::size_t>(slash - path);
  if (n + 2 > sizeof parent) return ::unlink(path);
  for (std::size_t i = 0; i < n; ++i) parent[i] = path[i];
  parent[n] = n == 0 ? '/' : '\0';
  parent[n == 0 ? 1 : n] = '\0';
  const int dir = open_outside(parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return -1;
  const int r = ::unlinkat(dir, slash + 1, 0);
  const int e = errno;
  ::close(dir);
  errno = e;
  return r;
}

}  // namespace bspcheck::rt
