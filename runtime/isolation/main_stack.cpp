#include "runtime/isolation/main_stack.hpp"

#include <sys/mman.h>
#include <sys/resource.h>

#include <cerrno>

#include "runtime/isolation/process_snapshot.hpp"

extern "C" void* __libc_stack_end;  // glibc: the top of the main thread's stack, as the kernel gave it

namespace bspcheck::rt {

namespace {

constexpr std::uintptr_t kPage = 4096;

bool mapped(std::uintptr_t page) {
  unsigned char resident = 0;
  return mincore(reinterpret_cast<void*>(page), kPage, &resident) == 0;
}

// The lowest address the main stack may reach (RLIMIT_STACK below its top, at most 1 GiB), read
// once (a worker reads it before its moment).
std::uintptr_t g_floor = 0;
std::uintptr_t stack_floor(std::uintptr_t top) {
  if (g_floor) return g_floor;
  rlimit limit{};
  std::uintptr_t reach = std::uintptr_t{1} << 30;
  if (getrlimit(RLIMIT_STACK, &limit) == 0 && limit.rlim_cur < reach) reach = limit.rlim_cur;
  return g_floor = top > reach + kPage ? (top - reach) & ~(kPage - 1) : kPage;
}

// The low end of the main stack's mapping, below its page `hi`. The last answer is kept: a
// worker's runs, which come back to the moment it was found in, confirm it with two probes.
std::uintptr_t g_known_low = 0;
std::uintptr_t low_end(std::uintptr_t hi, std::uintptr_t floor) {
  if (g_known_low && g_known_low <= hi && g_known_low >= floor && mapped(g_known_low) &&
      (g_known_low == floor || !mapped(g_known_low - kPage)))
    return g_known_low;
  return g_known_low = main_stack_lowest_page(hi, floor);
}

// clear_main_stack_pages_below, errno aside.
std::uintptr_t clear_pages_below(std::uintptr_t below) {
  const auto top = reinterpret_cast<std::uintptr_t>(__libc_stack_end);
  const std::uintptr_t floor = stack_floor(top);
  if (below >= top || below <= floor + kPage) return 0;  // not the main thread's stack
  const std::uintptr_t hi = below & ~(kPage - 1);
  if (mapped(hi - kPage)) {
    const std::uintptr_t lo = low_end(hi - kPage, floor);
    ProcessSnapshot::clear_as_fresh(reinterpret_cast<void*>(lo), hi - lo);
  }
  return hi;
}

}  // namespace

std::uintptr_t main_stack_lowest_page(std::uintptr_t hi, std::uintptr_t floor) {
  std::uintptr_t lo = floor;  // unmapped unless the stack reaches its floor
  if (mapped(lo)) return lo;
  while (hi - lo > kPage) {  // lo unmapped, hi mapped
    const std::uintptr_t mid = lo + ((hi - lo) / 2 & ~(kPage - 1));
    (mapped(mid) ? hi : lo) = mid;
  }
  return hi;
}

std::uintptr_t clear_main_stack_pages_below(std::uintptr_t below) {
  // mincore's "not mapped" sets errno to ENOMEM: the program's errno stays as it was (a crash
  // with errno ENOMEM reads as out-of-memory).
  const int saved_errno = errno;
  const std::uintptr_t cleared_to = clear_pages_below(below);
  errno = saved_errno;
  return cleared_to;
}

}  // namespace bspcheck::rt
