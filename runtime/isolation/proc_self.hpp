// proc_self.hpp: what a process snapshot (process_snapshot.hpp) reads of its own process in /proc
// (its mappings, descriptors, threads, size) and of the dynamic loader, without allocating.
//
// Why: a snapshot is taken and checked at the end of each run in a worker whose heap must be
// the same at each run's start: these readers write only into the buffers they are given and make
// their system calls themselves (raw_syscall.hpp).
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>

#include <cstddef>
#include <cstdint>

#include "runtime/isolation/raw_syscall.hpp"

#pragma GCC visibility push(hidden)
namespace bspcheck::rt::snapshot {

enum Perm : std::uint8_t { kRead = 1, kWrite = 2, kExec = 4, kPrivate = 8 };
enum class Kind : std::uint8_t { ordinary, stack, heap, special };

// A line of /proc/self/maps.
struct Mapping {
  std::uintptr_t lo, hi;
  std::uint64_t offset, inode;
  std::uint8_t perms;
  Kind kind;
};

// Reads a whole /proc file into buf; returns its length, or -1.
long read_proc(const char* path, char* buf, std::size_t cap);

// The number at p in `base` (10 or 16), p moved past it.
inline std::uint64_t parse_number(const char*& p, int base) {
  std::uint64_t v = 0;
  for (;; ++p) {
    int d;
    if (*p >= '0' && *p <= '9') d = *p - '0';
    else if (base == 16 && *p >= 'a' && *p <= 'f') d = *p - 'a' + 10;
    else break;
    v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
  }
  return v;
}

// Parses /proc/self/maps, read into text (cap bytes), into out; returns the count, or -1
// (unreadable, more than max mappings).
int read_mappings(char* text, std::size_t cap, Mapping* out, int max);

// Calls f(fd) for each open descriptor but the one reading the directory; false when unreadable.
template <class F>
bool for_each_fd(F&& f) {
  const int dir = static_cast<int>(
      raw_syscall(SYS_openat, AT_FDCWD, reinterpret_cast<long>("/proc/self/fd"), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir < 0) return false;
  alignas(8) char buf[4096];
  for (;;) {
    const long n = raw_syscall(SYS_getdents64, dir, reinterpret_cast<long>(buf), sizeof buf);
    if (n < 0) {
      raw_syscall(SYS_close, dir);
      return false;
    }
    if (n == 0) break;
    for (long at = 0; at < n;) {
      const auto* d = reinterpret_cast<const struct dirent64*>(buf + at);
      at += d->d_reclen;
      if (d->d_name[0] < '0' || d->d_name[0] > '9') continue;
      const char* p = d->d_name;
      const int fd = static_cast<int>(parse_number(p, 10));
      if (fd != dir) f(fd);
    }
  }
  raw_syscall(SYS_close, dir);
  return true;
}

// The number of the process's threads (/proc/self/task), or -1.
int count_threads();

// The process's size in pages (the first field of /proc/self/statm), or 0: read with one pread
// from `statm`, the file kept open (open_statm), else opened and read (four system calls, and the
// path's lookup through /proc, a tenth of a worker's restore of a small program).
std::uint64_t vm_pages(int statm = -1);
// /proc/self/statm opened for vm_pages and kept among the runtime's descriptors (out of the
// program's sight, runtime_file.hpp), or -1. Its process is the opener's: opened by the process
// that reads it.
int open_statm();

// The number of objects the dynamic loader has loaded (dl_iterate_phdr).
int loaded_objects();

}  // namespace bspcheck::rt::snapshot
#pragma GCC visibility pop
