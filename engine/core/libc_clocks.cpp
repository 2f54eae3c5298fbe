// libc_clocks.cpp: the C library's clocks under --virtual-time (virtual_time=1). A program that
// reads the wall clock (time(NULL) to seed rand, gettimeofday or clock_gettime to time a phase,
// a date in its output) depends on when it runs, so no seed reproduces it and every schedule
// prints other numbers. With virtual_time the runtime defines time, gettimeofday and
// clock_gettime itself (the program's calls bind to these: the runtime library comes before the
// C library in the program's link order), and each process reads its own virtual clock: a fixed
// epoch plus its virtual bsp_time (engine/core/world.cpp), plus one microsecond per reading so that
// two readings are never equal. Virtual bsp_time is the same under every schedule, so the clocks
// are too: the determinism self-check passes and schedule-divergence compares what matters.
//
// Without virtual_time every call goes to the C library's own function (found once with
// dlsym(RTLD_NEXT)), so a program pays one indirect call. CPU-time clocks
// (CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID) are never virtual: they measure work.
//
// These functions are called from places that must not allocate or take a lock: a malloc (ASan's
// allocator reads the monotonic clock with its own lock held), a signal handler, the C library's
// start-up before any constructor ran. So nothing here allocates or uses a guarded function-local
// static: the C library's functions and the environment's setting are looked up once, by a
// constructor, into plain atomics, and a call that comes before it asks the kernel directly.
#include <dlfcn.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "engine/core/foreign_contexts.hpp"
#include "engine/core/world.hpp"
#include "runtime/options/driver_environment.hpp"
#include "runtime/options/option_values.hpp"
#include "runtime/base/interpose.hpp"

namespace bspcheck::rt {

namespace {

// 2024-01-01 00:00:00 UTC: a plausible date, the same in every run.
constexpr std::int64_t kEpochSeconds = 1704067200;

// Readings outside any process (before bsp_begin, after bsp_end): a clock of their own.
std::atomic<std::uint64_t> g_outside_micros{0};

using ClockGettime = int (*)(clockid_t, struct timespec*);
using Gettimeofday = int (*)(struct timeval*, void*);
using Time = time_t (*)(time_t*);

// The C library's functions, once the constructor below found them.
std::atomic<ClockGettime> g_real_clock_gettime{nullptr};
std::atomic<Gettimeofday> g_real_gettimeofday{nullptr};
std::atomic<Time> g_real_time{nullptr};
// Whether readings outside any process are virtual: the program's BSPCHECK_OPTIONS say it.
std::atomic<bool> g_virtual_outside{false};

// Runs before main. What it calls may allocate, and an allocation may read the clock: such a
// reading finds the pointers still null and asks the kernel.
__attribute__((constructor)) void resolve_clocks() {
  g_real_clock_gettime = next_definition<ClockGettime>("clock_gettime");
  g_real_gettimeofday = next_definition<Gettimeofday>("gettimeofday");
  g_real_time = next_definition<Time>("time");
  // Before bsp_begin (srand(time(NULL)) at the top of main is the classic case) the program's
  // options say it. In-process runs (bspcheck::run) set it per run only: outside one, real. Only
  // the one key is read, with the options table's own value parser: the whole table is a static
  // that this early call would construct, and so destroy before the at-exit report reads it. A
  // bad value is reported by bsp_begin, which reads the options again; here it means real time.
  const char* env = driver_variable(DriverVariable::options);
  if (!env) return;
  const std::string_view all(env), key = "virtual_time=";
  for (std::size_t at = 0; at <= all.size();) {
    const std::size_t end = std::min(all.find(':', at), all.size());
    const std::string_view item = all.substr(at, end - at);
    if (item.substr(0, key.size()) == key) try {
        g_virtual_outside = BoolValue::parse("virtual_time", std::string(item.substr(key.size())));
      } catch (const std::exception&) {
        g_virtual_outside = false;
      }
    at = end + 1;
  }
}

bool virtual_time_on() {
  if (World* w = World::current()) return w->options().virtual_time;
  return g_virtual_outside.load(std::memory_order_relaxed);
}

// Seconds since the epoch on the calling process's virtual clock, advancing it by 1 us.
double virtual_now() {
  // Another thread or a forked child has no virtual clock of its own (and must not touch the World's).
  if (World* w = World::current(); w && on_world_thread()) return w->read_virtual_clock(1e-6);
  return static_cast<double>(++g_outside_micros) * 1e-6;
}

bool is_virtual_clock(clockid_t id) {
  switch (id) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_BOOTTIME:
    case CLOCK_TAI:
      return true;
    default:
      return false;
  }
}

}  // namespace

}  // namespace bspcheck::rt

using bspcheck::rt::kEpochSeconds;

extern "C" {

int clock_gettime(clockid_t id, struct timespec* ts) {
  if (!bspcheck::rt::is_virtual_clock(id) || !bspcheck::rt::virtual_time_on()) {
    const auto real = bspcheck::rt::g_real_clock_gettime.load(std::memory_order_relaxed);
    return real ? real(id, ts) : static_cast<int>(syscall(SYS_clock_gettime, id, ts));
  }
  const double t = bspcheck::rt::virtual_now();
  const auto whole = static_cast<std::int64_t>(t);
  // Monotonic clocks count from the epoch too: any origin is allowed, one is simplest.
  ts->tv_sec = static_cast<time_t>(kEpochSeconds + whole);
  ts->tv_nsec = static_cast<long>((t - static_cast<double>(whole)) * 1e9);
  return 0;
}

int gettimeofday(struct timeval* tv, void* tz) {
  if (!bspcheck::rt::virtual_time_on()) {
    const auto real = bspcheck::rt::g_real_gettimeofday.load(std::memory_order_relaxed);
    return real ? real(tv, tz) : static_cast<int>(syscall(SYS_gettimeofday, tv, tz));
  }
  const double t = bspcheck::rt::virtual_now();
  const auto whole = static_cast<std::int64_t>(t);
  tv->tv_sec = static_cast<time_t>(kEpochSeconds + whole);
  tv->tv_usec = static_cast<suseconds_t>((t - static_cast<double>(whole)) * 1e6);
  return 0;
}

time_t time(time_t* out) {
  if (!bspcheck::rt::virtual_time_on()) {
    const auto real = bspcheck::rt::g_real_time.load(std::memory_order_relaxed);
    return real ? real(out) : static_cast<time_t>(syscall(SYS_time, out));
  }
  const auto t = static_cast<time_t>(kEpochSeconds + static_cast<std::int64_t>(bspcheck::rt::virtual_now()));
  if (out) *out = t;
  return t;
}

}  // extern "C"
