// runtime_fds.cpp: the program's close, close_range and closefrom leave the runtime's own
// descriptors open, and its listings of /proc/self/fd do not show them (runtime_file.hpp registers them: a trace being
// recorded or replayed, a choice log, the per-process globals' memfd).
//
// A program that closes every descriptor above 2 (daemons, test harnesses, a child set up by
// hand before exec) would otherwise cut the recording short in the middle of the run: the trace
// of a single run's determinism self-check, --trace, replay. A separate tool's files are not the
// program's to close, so its close of one succeeds (0, as when it closes its own) and the file
// stays open for the runtime; a range closes the program's descriptors around them. Interposed
// as snapshot_interposers.cpp's are: the executable binds to the runtime library before the C
// library. (A call of the system call itself, syscall(SYS_close_range, ...), is not seen.)
//
// They are hidden from the program's listing of its own descriptors too: a program that checks
// itself for leaked descriptors lists /proc/self/fd (or /dev/fd) with opendir and readdir, and
// would see a stranger. readdir of such a listing skips the runtime's, and fcntl of one of them
// (a probe of F_GETFD over every number) fails with EBADF. (The runtime lists them
// with the system call itself, proc_self.hpp, and sees all.)
#include <dirent.h>
#include <dlfcn.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <climits>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime/base/interpose.hpp"
#include "runtime/base/runtime_file.hpp"

using bspcheck::rt::next_definition;

namespace {

using CloseRangeFn = int (*)(unsigned, unsigned, int);

// The runtime's descriptors in [first, last], sorted; n of them.
std::size_t kept_within(unsigned first, unsigned last, unsigned (&out)[bspcheck::rt::kKeptFdSlots]) {
  std::size_t n = 0;
  for (const std::atomic<int>& slot : bspcheck::rt::g_kept_fds) {
    const int v = slot.load(std::memory_order_relaxed) - 1;
    if (v >= 0 && static_cast<unsigned>(v) >= first && static_cast<unsigned>(v) <= last)
      out[n++] = static_cast<unsigned>(v);
  }
  std::sort(out, out + n);
  return n;
}

// The program's open listings of its own descriptors (a handful at once: a free slot is nullptr).
constexpr int kListingSlots = 8;
std::atomic<DIR*> g_fd_listings[kListingSlots];

// /proc/self/fd, /proc/thread-self/fd, /proc/PID/fd of this process, /dev/fd (a final '/' or not).
bool names_own_fd_folder(const char* path) {
  if (!path) return false;
  std::string p(path);
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p == "/proc/self/fd" || p == "/proc/thread-self/fd" || p == "/dev/fd" ||
         p == "/proc/" + std::to_string(syscall(SYS_getpid)) + "/fd";
}

void note_listing(DIR* d) {
  for (std::atomic<DIR*>& slot : g_fd_listings) {
    DIR* free_slot = nullptr;
    if (slot.compare_exchange_strong(free_slot, d)) return;
  }
}

bool is_listing(DIR* d) {
  for (const std::atomic<DIR*>& slot : g_fd_listings)
    if (slot.load(std::memory_order_relaxed) == d) return true;
  return false;
}

void forget_listing(DIR* d) {
  for (std::atomic<DIR*>& slot : g_fd_listings) {
    DIR* listed = d;
    slot.compare_exchange_strong(listed, nullptr);
  }
}

// An entry of a listing that names one of the runtime's descriptors.
bool hidden_entry(DIR* d, const char* name) {
  if (!is_listing(d) || name[0] < '0' || name[0] > '9') return false;
  char* end = nullptr;
  const long fd = std::strtol(name, &end, 10);
  return *end == '\0' && fd <= INT_MAX && bspcheck::rt::is_runtime_fd(static_cast<int>(fd));
}

}  // namespace

extern "C" {

DIR* opendir(const char* path) {
  static const auto real = next_definition<DIR* (*)(const char*)>("opendir");
  DIR* d = real(path);
  if (d && names_own_fd_folder(path)) note_listing(d);
  return d;
}

int closedir(DIR* d) {
  static const auto real = next_definition<int (*)(DIR*)>("closedir");
  forget_listing(d);
  return real(d);
}

dirent* readdir(DIR* d) {
  static const auto real = next_definition<dirent* (*)(DIR*)>("readdir");
  dirent* e = real(d);
  while (e && hidden_entry(d, e->d_name)) e = real(d);
  return e;
}

dirent64* readdir64(DIR* d) {
  static const auto real = next_definition<dirent64* (*)(DIR*)>("readdir64");
  dirent64* e = real(d);
  while (e && hidden_entry(d, e->d_name)) e = real(d);
  return e;
}

// fcntl of one of the runtime's descriptors fails as it would on a number the program never
// opened (EBADF): a program that probes fcntl(fd, F_GETFD) over 3..1023 for leaks finds no
// stranger. The runtime never calls fcntl on a descriptor once it keeps it (out_of_the_way moves
// a fresh one before it registers it). The argument is passed on as the C library reads it: one
// word, whether the command takes an int, a pointer or nothing.
int fcntl(int fd, int cmd, ...) {
  static const auto real = next_definition<int (*)(int, int, ...)>("fcntl");
  va_list args;
  va_start(args, cmd);
  void* arg = va_arg(args, void*);
  va_end(args);
  if (bspcheck::rt::is_runtime_fd(fd)) {
    errno = EBADF;
    return -1;
  }
  return real(fd, cmd, arg);
}

int fcntl64(int fd, int cmd, ...) {  // what a program built with _FILE_OFFSET_BITS=64 calls
  static const auto real = next_definition<int (*)(int, int, ...)>("fcntl64");
  va_list args;
  va_start(args, cmd);
  void* arg = va_arg(args, void*);
  va_end(args);
  if (bspcheck::rt::is_runtime_fd(fd)) {
    errno = EBADF;
    return -1;
  }
  return real(fd, cmd, arg);
}

int close(int fd) {
  if (bspcheck::rt::is_runtime_fd(fd)) return 0;
  static const auto real = next_definition<int (*)(int)>("close");
  return real(fd);
}

// close_range(2) over the gaps between the runtime's descriptors; with CLOSE_RANGE_CLOEXEC only
// (which closes nothing: the runtime's are close-on-exec already) the range is passed whole.
int close_range(unsigned first, unsigned last, int flags) noexcept {
  static const auto real = next_definition<CloseRangeFn>("close_range");
  if (!real) {
    errno = ENOSYS;
    return -1;
  }
  constexpr int kCloexec = 4;  // CLOSE_RANGE_CLOEXEC, <linux/close_range.h>
  unsigned kept[bspcheck::rt::kKeptFdSlots];
  const std::size_t n = (flags & kCloexec) || first > last ? 0 : kept_within(first, last, kept);
  unsigned from = first;
  for (std::size_t i = 0; i < n; ++i) {
    if (kept[i] > from && real(from, kept[i] - 1, flags) != 0) return -1;
    from = kept[i] + 1;
  }
  if (n > 0 && from > last) return 0;  // the range ended with a kept descriptor
  return real(from, last, flags);
}

void closefrom(int lowfd) noexcept {
  if (lowfd < 0) lowfd = 0;
  if (close_range(static_cast<unsigned>(lowfd), ~0U, 0) == 0) return;
  // No close_range (kernels before 5.9): each descriptor up to the limit, as the C library does.
  rlimit lim{};
  const long max = getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY
                       ? static_cast<long>(std::min<rlim_t>(lim.rlim_cur, INT_MAX))
                       : 65536;
  for (long fd = lowfd; fd < max; ++fd) close(static_cast<int>(fd));
}

}  // extern "C"
