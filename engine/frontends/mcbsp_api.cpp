// mcbsp_api.cpp: the MulticoreBSP for C 2.x interface (include/mcbsp.h) on the classic engine.
//
// MulticoreBSP counts processes with unsigned int and bytes with size_t; the engine, like the
// classic interface, holds int. Each entry point here checks that its values fit, then calls the
// classic primitive, which takes the call site mcbsp.h's macro recorded and does the rest. A
// value the engine cannot hold is a finding at the call site (api-misuse, or bad-pid for a
// process number), never a silent truncation. The symbols are bspcheck_mcbsp_*, bound to the
// bsp_* names by asm labels in mcbsp.h, so one library serves both interfaces.
#define BSPCHECK_NO_SITE_MACROS
#define BSPCHECK_MCBSP_IMPLEMENTATION
#include "bsp.h"
#include "mcbsp.h"

#include <algorithm>
#include <climits>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

#include "engine/frontends/call_entry.hpp"
#include "engine/host/entry_points.hpp"
#include "engine/core/foreign_contexts.hpp"
#include "engine/core/world.hpp"

using bspcheck::rt::World;

namespace {

using mcbsp_pid = bspcheck_mcbsp_pid_t;
using mcbsp_size = bspcheck_mcbsp_size_t;

constexpr mcbsp_size kEngineMax = INT_MAX;  // the largest size, offset or pid the engine holds

// mcbsp_set_maximum_threads: at most this many processes (MulticoreBSP's cap on its threads).
std::size_t g_maximum_threads = SIZE_MAX;

struct Value {
  const char* name;
  std::size_t value;
};

// True when every value fits the engine. Otherwise the call is entered (taking its site) and the
// first value that does not fit is reported: a pid under bad-pid, anything else as api-misuse.
bool engine_holds(const char* call, const void* pc, std::initializer_list<Value> values) {
  for (const Value& v : values) {
    if (v.value <= kEngineMax) continue;
    if (World* w = bspcheck::rt::enter_call(call, pc)) {
      const std::string who = "process " + std::to_string(w->pid());
      if (std::string(v.name) == "pid")
        w->report(bspcheck::Rule::bad_pid, who + " names process " + std::to_string(v.value) + " in " + call +
                                               ", outside 0.." + std::to_string(w->nprocs() - 1));
      else
        w->report(bspcheck::Rule::api_misuse, who + " passes " + v.name + " = " + std::to_string(v.value) + " to " +
                                                  call + ", more than bsp-check's engine holds (INT_MAX = " +
                                                  std::to_string(INT_MAX) + "); the call is not performed");
      w->switch_point();
    }
    return false;
  }
  return true;
}

#define CALLER __builtin_return_address(0)

void direct_get_at(const void* pc, int pid, const void* source, int offset, void* destination, int size) {
  if (World* w = bspcheck::rt::enter_call("bsp_direct_get", pc)) {
    w->direct_get(pid, source, offset, destination, size);
    w->switch_point();
  }
}

// bsp_abort's message: formatted here, handed to the classic bsp_abort whole.
[[noreturn]] void abort_with(const char* format, va_list ap) {
  char buf[4096];
  std::vsnprintf(buf, sizeof buf, format ? format : "", ap);
  bsp_abort("%s", buf);
}

}  // namespace

extern "C" {

// --- SPMD framework ---------------------------------------------------------------------------

void bspcheck_mcbsp_begin(mcbsp_pid P) {
  // bsp_begin may grant fewer processes than requested: a request beyond the engine's range or
  // beyond mcbsp_set_maximum_threads is granted at most that many, as MulticoreBSP does.
  std::size_t granted_at_most = P;
  if (granted_at_most > g_maximum_threads) granted_at_most = g_maximum_threads;
  if (granted_at_most > kEngineMax) granted_at_most = kEngineMax;
  // MulticoreBSP's processes are threads: they share the program's globals (docs/dialects.md).
  bspcheck::rt::begin_in_dialect(bspcheck::rt::Dialect::mcbsp);
  bsp_begin(static_cast<int>(granted_at_most));
}

void bspcheck_mcbsp_begin_int(int maxprocs) {
  // A request of no processes is the classic bsp_begin's to report, with its own message.
  if (maxprocs < 1) {
    bspcheck::rt::begin_in_dialect(bspcheck::rt::Dialect::mcbsp);
    bsp_begin(maxprocs);
    return;
  }
  bspcheck_mcbsp_begin(static_cast<mcbsp_pid>(maxprocs));
}

void bspcheck_mcbsp_end(void) { bsp_end(); }

void bspcheck_mcbsp_init(void (*spmd)(void), int argc, char** argv) { bsp_init(spmd, argc, argv); }

void bspcheck_mcbsp_abort(const char* error_message, ...) {
  va_list ap;
  va_start(ap, error_message);
  abort_with(error_message, ap);
}

void bspcheck_mcbsp_vabort(const char* error_message, va_list args) { abort_with(error_message, args); }

mcbsp_pid bspcheck_mcbsp_nprocs(void) {
  const int n = bsp_nprocs();
  // Before bsp_begin this is the number of processors available, which MulticoreBSP caps.
  World* w = World::current();
  const bool inside = w != nullptr && w->self().begun;
  std::size_t result = static_cast<std::size_t>(n);
  if (!inside && result > g_maximum_threads) result = g_maximum_threads;
  return static_cast<mcbsp_pid>(result);
}

mcbsp_pid bspcheck_mcbsp_pid(void) { return static_cast<mcbsp_pid>(bsp_pid()); }

double bspcheck_mcbsp_time(void) { return bsp_time(); }

void bspcheck_mcbsp_sync(void) { bsp_sync(); }

// --- DRMA ------------------------------------------------------------------------------------

void bspcheck_mcbsp_push_reg(const void* address, mcbsp_size size) {
  if (size <= kEngineMax) {
    bsp_push_reg(address, static_cast<int>(size));
    return;
  }
  // Registering nothing would shift every later registration slot of this process against the
  // others; register the most the engine holds, then report at the call just recorded.
  bsp_push_reg(address, INT_MAX);
  if (World* w = World::current(); w && bspcheck::rt::on_world_thread())
    w->report(bspcheck::Rule::api_misuse,
              "process " + std::to_string(w->pid()) + " registers " + std::to_string(size) +
                  " bytes with bsp_push_reg, more than bsp-check's engine holds (INT_MAX = " + std::to_string(INT_MAX) +
                  "); registered as INT_MAX bytes");
}

void bspcheck_mcbsp_pop_reg(const void* address) { bsp_pop_reg(address); }

void bspcheck_mcbsp_put(mcbsp_pid pid, const void* source, void* destination, mcbsp_size offset, mcbsp_size size) {
  if (engine_holds("bsp_put", CALLER, {{"pid", pid}, {"offset", offset}, {"size", size}}))
    bsp_put(static_cast<int>(pid), source, destination, static_cast<int>(offset), static_cast<int>(size));
}

void bspcheck_mcbsp_hpput(mcbsp_pid pid, const void* source, void* destination, mcbsp_size offset, mcbsp_size size) {
  if (engine_holds("bsp_hpput", CALLER, {{"pid", pid}, {"offset", offset}, {"size", size}}))
    bsp_hpput(static_cast<int>(pid), source, destination, static_cast<int>(offset), static_cast<int>(size));
}

void bspcheck_mcbsp_get(mcbsp_pid pid, const void* source, mcbsp_size offset, void* destination, mcbsp_size size) {
  if (engine_holds("bsp_get", CALLER, {{"pid", pid}, {"offset", offset}, {"size", size}}))
    bsp_get(static_cast<int>(pid), source, static_cast<int>(offset), destination, static_cast<int>(size));
}

void bspcheck_mcbsp_hpget(mcbsp_pid pid, const void* source, mcbsp_size offset, void* destination, mcbsp_size size) {
  if (engine_holds("bsp_hpget", CALLER, {{"pid", pid}, {"offset", offset}, {"size", size}}))
    bsp_hpget(static_cast<int>(pid), source, static_cast<int>(offset), destination, static_cast<int>(size));
}

// No classic primitive: the engine's own (World::direct_get), entered as the classic calls are.
void bspcheck_mcbsp_direct_get(mcbsp_pid pid, const void* source, mcbsp_size offset, void* destination,
                               mcbsp_size size) {
  if (!engine_holds("bsp_direct_get", CALLER, {{"pid", pid}, {"offset", offset}, {"size", size}})) return;
  direct_get_at(CALLER, static_cast<int>(pid), source, static_cast<int>(offset), destination, static_cast<int>(size));
}

// MCBSP_COMPATIBILITY_MODE's bsp_direct_get, with the classic int types (a negative value is the
// engine's api-misuse, as for bsp_get).
void bspcheck_mcbsp_direct_get_int(int pid, const void* source, int offset, void* destination, int size) {
  direct_get_at(CALLER, pid, source, offset, destination, size);
}

// --- BSMP ------------------------------------------------------------------------------------

void bspcheck_mcbsp_set_tagsize(mcbsp_size* size) {
  if (!size) {
    bsp_set_tagsize(nullptr);  // the engine reports the NULL
    return;
  }
  if (!engine_holds("bsp_set_tagsize", CALLER, {{"tag size", *size}})) return;
  int tag_nbytes = static_cast<int>(*size);
  bsp_set_tagsize(&tag_nbytes);
  *size = static_cast<mcbsp_size>(tag_nbytes);  // the previous tag size, as BSPlib returns it
}

void bspcheck_mcbsp_send(mcbsp_pid pid, const void* tag, const void* payload, mcbsp_size size) {
  if (engine_holds("bsp_send", CALLER, {{"pid", pid}, {"size", size}}))
    bsp_send(static_cast<int>(pid), tag, payload, static_cast<int>(size));
}

// MulticoreBSP's hpsend reads tag and payload at any moment until the sync instead of at the
// call (World::hpsend).
void bspcheck_mcbsp_hpsend(mcbsp_pid pid, const void* tag, const void* payload, mcbsp_size size) {
  if (!engine_holds("bsp_hpsend", CALLER, {{"pid", pid}, {"size", size}})) return;
  if (World* w = bspcheck::rt::enter_call("bsp_hpsend", CALLER)) {
    w->hpsend(static_cast<int>(pid), tag, payload, static_cast<int>(size));
    w->switch_point();
  }
}

void bspcheck_mcbsp_qsize(mcbsp_pid* packets, mcbsp_size* accumulated_size) {
  // MulticoreBSP documents accumulated_size as optional; the classic engine wants both.
  int nmessages = 0, nbytes = 0;
  bsp_qsize(packets ? &nmessages : nullptr, &nbytes);
  if (packets) *packets = static_cast<mcbsp_pid>(nmessages);
  if (accumulated_size) *accumulated_size = static_cast<mcbsp_size>(nbytes);
}

void bspcheck_mcbsp_get_tag(mcbsp_size* status, void* tag) {
  if (!status) {
    bsp_get_tag(nullptr, tag);  // the engine reports the NULL
    return;
  }
  int payload_nbytes = -1;
  bsp_get_tag(&payload_nbytes, tag);
  *status = payload_nbytes < 0 ? SIZE_MAX : static_cast<mcbsp_size>(payload_nbytes);  // SIZE_MAX: queue empty
}

void bspcheck_mcbsp_move(void* payload, mcbsp_size max_copy_size) {
  // No payload exceeds INT_MAX bytes, so a larger reception size copies exactly what INT_MAX
  // copies: clamping changes nothing (programs pass SIZE_MAX to mean "all of it").
  bsp_move(payload, max_copy_size > kEngineMax ? INT_MAX : static_cast<int>(max_copy_size));
}

mcbsp_size bspcheck_mcbsp_hpmove(void** p_tag, void** p_payload) {
  const int payload_nbytes = bsp_hpmove(p_tag, p_payload);
  return payload_nbytes < 0 ? SIZE_MAX : static_cast<mcbsp_size>(payload_nbytes);  // SIZE_MAX: queue empty
}

// --- mcbsp-affinity.h ------------------------------------------------------------------------
// Thread placement: nothing to place, all processes are coroutines of one OS thread. The settings
// are kept for their getters, which a program may print or size arrays by; a setting not made
// reads as its default (MCBSP_DEFAULT_*, which a program may change, as in MulticoreBSP).

enum mcbsp_affinity_mode MCBSP_DEFAULT_AFFINITY = SCATTER;
size_t MCBSP_DEFAULT_THREADS_PER_CORE = 1;
enum mcbsp_thread_numbering MCBSP_DEFAULT_THREAD_NUMBERING = CONSECUTIVE;

}  // extern "C"

namespace {

struct Placement {
  bool affinity_set = false, threads_per_core_set = false, numbering_set = false;
  enum mcbsp_affinity_mode affinity = SCATTER;
  std::size_t threads_per_core = 1, unused_threads_per_core = 0, available_cores = 0;  // 0: not set
  enum mcbsp_thread_numbering numbering = CONSECUTIVE;
  std::vector<std::size_t> pinning, reserved;
  bool pinning_set = false;
};
Placement g_placement;

// A malloc'd copy of n entries of v (zeros beyond it), for getters whose caller frees the result.
std::size_t* malloc_copy(const std::vector<std::size_t>& v, std::size_t n) {
  auto* out = static_cast<std::size_t*>(std::calloc(n ? n : 1, sizeof(std::size_t)));
  if (out) std::copy_n(v.begin(), std::min(n, v.size()), out);
  return out;
}

}  // namespace

extern "C" {

// 0 is no limit: a process count of zero cannot be granted.
void mcbsp_set_maximum_threads(const size_t max) { g_maximum_threads = max == 0 ? SIZE_MAX : max; }
void mcbsp_set_affinity_mode(const enum mcbsp_affinity_mode mode) {
  g_placement.affinity = mode;
  g_placement.affinity_set = true;
}
void mcbsp_set_available_cores(const size_t num_cores) { g_placement.available_cores = num_cores; }
void mcbsp_set_threads_per_core(const size_t threads_per_core) {
  g_placement.threads_per_core = threads_per_core;
  g_placement.threads_per_core_set = true;
}
void mcbsp_set_unused_threads_per_core(const size_t unused) { g_placement.unused_threads_per_core = unused; }
void mcbsp_set_thread_numbering(const enum mcbsp_thread_numbering numbering) {
  g_placement.numbering = numbering;
  g_placement.numbering_set = true;
}
void mcbsp_set_pinning(const size_t* const pinning, const size_t length) {
  g_placement.pinning.assign(pinning, pinning + (pinning ? length : 0));
  g_placement.pinning_set = true;
  mcbsp_set_affinity_mode(MANUAL);
}
void mcbsp_set_reserved_cores(const size_t* const reserved, const size_t length) {
  g_placement.reserved.assign(reserved, reserved + (reserved ? length : 0));
}

size_t mcbsp_get_maximum_threads(void) {
  const auto available = static_cast<std::size_t>(bspcheck::rt::available_processors());
  return g_maximum_threads == SIZE_MAX ? available : g_maximum_threads;
}
enum mcbsp_affinity_mode mcbsp_get_affinity_mode(void) {
  return g_placement.affinity_set ? g_placement.affinity : MCBSP_DEFAULT_AFFINITY;
}
size_t mcbsp_get_threads_per_core(void) {
  return g_placement.threads_per_core_set ? g_placement.threads_per_core : MCBSP_DEFAULT_THREADS_PER_CORE;
}
size_t mcbsp_get_available_cores(void) {
  if (g_placement.available_cores) return g_placement.available_cores;
  const std::size_t per_core = mcbsp_get_threads_per_core();
  return static_cast<std::size_t>(bspcheck::rt::available_processors()) / (per_core ? per_core : 1);
}
size_t mcbsp_get_unused_threads_per_core(void) { return g_placement.unused_threads_per_core; }
enum mcbsp_thread_numbering mcbsp_get_thread_numbering(void) {
  return g_placement.numbering_set ? g_placement.numbering : MCBSP_DEFAULT_THREAD_NUMBERING;
}
size_t* mcbsp_get_pinning(void) {
  return g_placement.pinning_set ? malloc_copy(g_placement.pinning, mcbsp_get_maximum_threads()) : nullptr;
}
size_t mcbsp_get_reserved_cores_number(void) { return g_placement.reserved.size(); }
size_t* mcbsp_get_reserved_cores(void) {
  return g_placement.reserved.empty() ? nullptr : malloc_copy(g_placement.reserved, g_placement.reserved.size());
}

}  // extern "C"
