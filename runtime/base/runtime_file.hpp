// runtime_file.hpp: a file the runtime keeps open while the program runs (a trace being written
// or replayed, a choice log, the per-process globals' memfd), kept out of the program's way as a separate tool's would be:
// close-on-exec, so that the programs it starts do not inherit it, and at a descriptor at or
// above kRuntimeFdFloor, so that the program's own files get the numbers they would get outside
// (a program that opens a file expecting descriptor 3 still gets 3).
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

namespace bspcheck::rt {

inline constexpr int kRuntimeFdFloor = 100;  // the fork server's channels start there too

// Moves a close-on-exec descriptor the runtime keeps to kRuntimeFdFloor or above; where none is
// free up there (a low RLIMIT_NOFILE), it stays where it is.
inline int out_of_the_way(int fd) {
  if (fd < 0 || fd >= kRuntimeFdFloor) return fd;
  const int high = fcntl(fd, F_DUPFD_CLOEXEC, kRuntimeFdFloor);
  if (high < 0) return fd;
  close(fd);
  return high;
}

// fopen's "r", "rb", "w" or "wb"; nullptr and errno as fopen's on failure.
inline std::FILE* open_runtime_file(const char* path, const char* mode) {
  const bool write = mode[0] == 'w';
  const int fd = out_of_the_way(open(path, (write ? O_WRONLY | O_CREAT | O_TRUNC : O_RDONLY) | O_CLOEXEC, 0666));
  if (fd < 0) return nullptr;
  std::FILE* f = fdopen(fd, mode);
  if (!f) {
    const int e = errno;
    close(fd);
    errno = e;
  }
  return f;
}

}  // namespace bspcheck::rt
