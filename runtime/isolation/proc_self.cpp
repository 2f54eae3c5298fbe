#include "runtime/isolation/proc_self.hpp"

#include <link.h>

#include <cstring>

#include "runtime/base/runtime_file.hpp"

namespace bspcheck::rt::snapshot {

namespace {

bool starts_with(const char* p, const char* prefix) { return std::strncmp(p, prefix, std::strlen(prefix)) == 0; }

}  // namespace

long read_proc(const char* path, char* buf, std::size_t cap) {
  const int fd =
      static_cast<int>(raw_syscall(SYS_openat, AT_FDCWD, reinterpret_cast<long>(path), O_RDONLY | O_CLOEXEC));
  if (fd < 0) return -1;
  std::size_t len = 0;
  for (;;) {
    if (len + 1 >= cap) {
      raw_syscall(SYS_close, fd);
      return -1;
    }
    const long n = raw_syscall(SYS_read, fd, reinterpret_cast<long>(buf + len), static_cast<long>(cap - 1 - len));
    if (n < 0) {
      raw_syscall(SYS_close, fd);
      return -1;
    }
    if (n == 0) break;
    len += static_cast<std::size_t>(n);
  }
  raw_syscall(SYS_close, fd);
  buf[len] = '\0';
  return static_cast<long>(len);
}

int read_mappings(char* text, std::size_t cap, Mapping* out, int max) {
  if (read_proc("/proc/self/maps", text, cap) < 0) return -1;
  int n = 0;
  for (const char* p = text; *p;) {
    if (n == max) return -1;
    Mapping& m = out[n++];
    m.lo = parse_number(p, 16);
    ++p;  // '-'
    m.hi = parse_number(p, 16);
    ++p;
    m.perms = static_cast<std::uint8_t>((p[0] == 'r' ? kRead : 0) | (p[1] == 'w' ? kWrite : 0) |
                                        (p[2] == 'x' ? kExec : 0) | (p[3] == 'p' ? kPrivate : 0));
    p += 5;
    m.offset = parse_number(p, 16);
    ++p;
    while (*p && *p != ' ') ++p;  // device
    ++p;
    m.inode = parse_number(p, 10);
    while (*p == ' ') ++p;
    m.kind = Kind::ordinary;
    if (starts_with(p, "[stack]")) m.kind = Kind::stack;
    else if (starts_with(p, "[heap]")) m.kind = Kind::heap;
    else if (starts_with(p, "[v")) m.kind = Kind::special;  // [vvar], [vdso], [vsyscall]
    while (*p && *p != '\n') ++p;
    if (*p) ++p;
  }
  return n;
}

int count_threads() {
  int n = 0;
  const int dir = static_cast<int>(
      raw_syscall(SYS_openat, AT_FDCWD, reinterpret_cast<long>("/proc/self/task"), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir < 0) return -1;
  alignas(8) char buf[4096];
  for (long got; (got = raw_syscall(SYS_getdents64, dir, reinterpret_cast<long>(buf), sizeof buf)) > 0;) {
    for (long at = 0; at < got;) {
      const auto* d = reinterpret_cast<const struct dirent64*>(buf + at);
      at += d->d_reclen;
      if (d->d_name[0] >= '0' && d->d_name[0] <= '9') ++n;
    }
  }
  raw_syscall(SYS_close, dir);
  return n;
}

std::uint64_t vm_pages(int statm) {
  char text[128];
  if (statm >= 0) {
    const long n = raw_syscall(SYS_pread64, statm, reinterpret_cast<long>(text), sizeof text - 1, 0);
    if (n <= 0) return 0;
    text[n] = '\0';
  } else if (read_proc("/proc/self/statm", text, sizeof text) < 0) {
    return 0;
  }
  const char* p = text;
  return parse_number(p, 10);
}

int open_statm() {
  const long fd = raw_syscall(SYS_openat, AT_FDCWD, reinterpret_cast<long>("/proc/self/statm"), O_RDONLY | O_CLOEXEC);
  return fd < 0 ? -1 : out_of_the_way(static_cast<int>(fd));
}

int loaded_objects() {
  int n = 0;
  dl_iterate_phdr([](dl_phdr_info*, std::size_t, void* count) { return ++*static_cast<int*>(count), 0; }, &n);
  return n;
}

}  // namespace bspcheck::rt::snapshot
