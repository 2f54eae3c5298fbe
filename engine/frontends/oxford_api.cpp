// oxford_api.cpp: what the Oxford BSP toolset's bsp.h declares beside the 20 primitives
// (include/bsp.h, docs/dialects.md): bsp_dtime, bsp_cputime and the machine parameters bsp_s,
// bsp_l, bsp_g and bsp_nhalf.
//
// The toolset reads s, l, g and nhalf from a table of measured machines. bsp-check runs on no
// machine of its own but times every run with its virtual clock (engine/core/virtual_clock.hpp), so
// the parameters are that clock's, in the toolset's units: then a program that predicts its cost
// from them predicts what its bsp_time measures under bsp-check.
#define BSPCHECK_NO_SITE_MACROS
#include "bsp.h"

#include "engine/frontends/call_entry.hpp"
#include "engine/core/virtual_clock.hpp"
#include "engine/core/world.hpp"

using bspcheck::rt::VirtualClock;
using bspcheck::rt::World;

namespace {

// One flop is taken to last 1 ns, the clock's cost of one byte, so that g is a whole number.
constexpr double kFlopSeconds = 1e-9;
// The toolset's g is per 32-bit word, like Table 1 of the BSPlib paper (bsp-check show's default
// --word-bytes is 4 for the same reason).
constexpr double kWordBytes = 4.0;

constexpr double kSpeed = 1.0 / kFlopSeconds;                                 // s: 1e9 flop/s
constexpr double kLatency = VirtualClock::kBarrierCost / kFlopSeconds;        // l: 10000 flops
constexpr double kGap = VirtualClock::kByteCost * kWordBytes / kFlopSeconds;  // g: 4 flops per word
// nhalf: the message length at which a word costs 2g. A put costs its caller kCallCost besides g
// per word, so (kCallCost + n g) / n = 2g at n = kCallCost / g: 250 words.
constexpr int kNhalf = static_cast<int>(VirtualClock::kCallCost / kFlopSeconds / kGap + 0.5);

double dtime_query(const char* file, int line, const void* pc) {
  World* w = bspcheck::rt::enter_call_at("bsp_dtime", bspcheck::rt::Site{file, line, 0, pc});
  if (!w) return 0.0;
  const double now = w->time();
  double& last = w->self().dtime_last;
  const double elapsed = now - last;
  last = now;
  return elapsed > 0.0 ? elapsed : 0.0;
}

// The toolset's bsp_cputime is the CPU time since bsp_begin where libc has a CPU timer, else
// bsp_time. All of bsp-check's processes run on one OS thread, so no CPU timer tells them apart:
// it is bsp_time, virtual (and the same under every schedule) unless the run asks for real time.
double cputime_query(const char* file, int line, const void* pc) {
  World* w = bspcheck::rt::enter_call_at("bsp_cputime", bspcheck::rt::Site{file, line, 0, pc});
  return w ? w->time() : 0.0;
}

}  // namespace

#define SITE __builtin_return_address(0)

extern "C" {

double bsp_dtime(void) { return dtime_query(nullptr, 0, SITE); }
double bsp_cputime(void) { return cputime_query(nullptr, 0, SITE); }
double bspcheck_dtime_at(const char* file, int line) { return dtime_query(file, line, SITE); }
double bspcheck_cputime_at(const char* file, int line) { return cputime_query(file, line, SITE); }

// Constants: legal anywhere, before bsp_begin too (the toolset's are read at bsp_begin, but a
// program asking earlier merely got zeros there; here the answer does not depend on when).
double bsp_s(void) { return kSpeed; }
double bsp_l(void) { return kLatency; }
double bsp_g(void) { return kGap; }
int bsp_nhalf(void) { return kNhalf; }

}  // extern "C"
