// virtual_clock.cpp: the C library's clocks under --virtual-time (virtual_time=1). A program that
// reads the wall clock (time(NULL) to seed rand, gettimeofday or clock_gettime to time a phase,
// a date in its output) depends on when it runs, so no seed reproduces it and every schedule
// prints other numbers. With virtual_time the runtime defines time, gettimeofday and
// clock_gettime itself (the program's calls bind to these: the runtime library comes before the
// C library in the program's link order), and each process reads its own virtual clock: a fixed
// epoch plus its virtual bsp_time (engine/world.cpp), plus one microsecond per reading so that
// two readings are never equal. Virtual bsp_time is the same under every schedule, so the clocks
// are too: the determinism self-check passes and schedule-divergence compares what matters.
//
// Without virtual_time every call goes to the C library's own function (found once with
// dlsym(RTLD_NEXT)), so a program pays one indirect call. CPU-time clocks
// (CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID) are never virtual: they measure work.
#include <dlfcn.h>
#include <sys/time.h>
#include <time.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>

#include "engine/world.hpp"
#include "runtime/options.hpp"

namespace bspcheck::rt {

namespace {

// 2024-01-01 00:00:00 UTC: a plausible date, the same in every run.
constexpr std::int64_t kEpochSeconds = 1704067200;

// Readings outside any process (before bsp_begin, after bsp_end): a clock of their own.
std::atomic<std::uint64_t> g_outside_micros{0};

bool virtual_time_on() {
  if (World* w = World::current()) return w->options().virtual_time;
  // Before bsp_begin (srand(time(NULL)) at the top of main is the classic case) the program's
  // options say it. In-process runs (bspcheck::run) set it per run only: outside one, real.
  static const int from_environment = [] {
    const char* env = std::getenv("BSPCHECK_OPTIONS");
    return env && *env ? (program_options_from_environment().run.virtual_time ? 1 : 0) : 0;
  }();
  return from_environment == 1;
}

// Seconds since the epoch on the calling process's virtual clock, advancing it by 1 us.
double virtual_now() {
  if (World* w = World::current()) return w->read_virtual_clock(1e-6);
  return static_cast<double>(++g_outside_micros) * 1e-6;
}

template <typename F>
F next_definition(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
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
  static const auto real = bspcheck::rt::next_definition<int (*)(clockid_t, struct timespec*)>("clock_gettime");
  if (!bspcheck::rt::is_virtual_clock(id) || !bspcheck::rt::virtual_time_on()) return real(id, ts);
  const double t = bspcheck::rt::virtual_now();
  const auto whole = static_cast<std::int64_t>(t);
  // Monotonic clocks count from the epoch too: any origin is allowed, one is simplest.
  ts->tv_sec = static_cast<time_t>(kEpochSeconds + whole);
  ts->tv_nsec = static_cast<long>((t - static_cast<double>(whole)) * 1e9);
  return 0;
}

int gettimeofday(struct timeval* tv, void* tz) {
  static const auto real = bspcheck::rt::next_definition<int (*)(struct timeval*, void*)>("gettimeofday");
  if (!bspcheck::rt::virtual_time_on()) return real(tv, tz);
  const double t = bspcheck::rt::virtual_now();
  const auto whole = static_cast<std::int64_t>(t);
  tv->tv_sec = static_cast<time_t>(kEpochSeconds + whole);
  tv->tv_usec = static_cast<suseconds_t>((t - static_cast<double>(whole)) * 1e6);
  return 0;
}

time_t time(time_t* out) {
  static const auto real = bspcheck::rt::next_definition<time_t (*)(time_t*)>("time");
  if (!bspcheck::rt::virtual_time_on()) return real(out);
  const auto t = static_cast<time_t>(kEpochSeconds + static_cast<std::int64_t>(bspcheck::rt::virtual_now()));
  if (out) *out = t;
  return t;
}

}  // extern "C"
