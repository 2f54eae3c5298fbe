// c_api.cpp: the 20 BSPlib primitives with their classic C signatures. Each one takes the call
// site recorded by bsp.h's macro (or, for programs built against another bsp.h, its return
// address), and hands the call to the World.
//
// The switch point that ends most primitives is made here, after the World method has returned:
// a process is then suspended one frame below the program, and when it resumes only one return
// (to the program) can be mispredicted, however different the call the previous process made.
#define BSPCHECK_NO_SITE_MACROS
#include "bsp.h"
#include "bspcheck/hygiene.h"

#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>

#include "engine/frontends/call_entry.hpp"
#include "engine/host/entry_points.hpp"
#include "engine/core/foreign_contexts.hpp"
#include "engine/core/world.hpp"
#include "runtime/executable/symbolise.hpp"
#include "runtime/executable/call_stacks.hpp"
#include "runtime/isolation/main_stack.hpp"

using bspcheck::Rule;
using bspcheck::rt::Site;
using bspcheck::rt::World;

namespace {

// Set by bspcheck_set_site just before the call, consumed by it.
const char* g_site_file = nullptr;
int g_site_line = 0;

// The world, with the call recorded at its site; nullptr (after reporting misuse) outside
// bsp_begin/bsp_end. A call made through a wrapper gets its stack here, on the world's thread only
// (the stack tables have no locks).
//
// The usual call passes the site's fields on one by one, never as a Site built in memory and copied:
// a copy reads 16 bytes at once where two smaller stores have just been made, which the CPU cannot
// forward from its store buffer. Such copies stalled a call three times: 7 of its 14 ns (bench_switch).
__attribute__((always_inline)) inline World* enter_at(const char* call, const char* file, int line, const void* pc) {
  World* w = World::current();
  if (__builtin_expect(w != nullptr, 1)) {
    if (__builtin_expect(!bspcheck::rt::on_world_thread(), false)) {  // another thread, a forked child
      bspcheck::rt::call_outside_world_thread(call, Site{file, line, 0, pc});
      return nullptr;
    }
    if (__builtin_expect(bspcheck::rt::is_direct_site_file(file), 1)) w->enter(call, file, line, pc);
    else w->enter(call, bspcheck::rt::detail::with_wrapper_stack_slow(Site{file, line, 0, pc}));
    return w;
  }
  bspcheck::rt::misuse_outside_spmd(call, Site{file, line, 0, pc});
  return nullptr;
}

// The same, at the site bsp.h's macro set just before the call (consumed here).
inline World* enter(const char* call, const void* pc) {
  const char* file = g_site_file;
  g_site_file = nullptr;
  return enter_at(call, file, g_site_line, pc);
}

inline World* enter(const char* call, const Site& site) { return enter_at(call, site.file, site.line, site.pc); }

// The call's return address, taken in the primitive's own frame.
#define SITE __builtin_return_address(0)

// bsp_begin's site, as one value for its several uses.
inline Site take_site(const void* pc) {
  Site s{g_site_file, g_site_line, 0, pc};
  g_site_file = nullptr;
  return s;
}

// The queries take their site's fields one by one too (see enter_at).
int nprocs_query(const char* file, int line, const void* pc) {
  // Before its own bsp_begin (processes 1..p-1 restart the SPMD function from its start), a
  // process asks for the processors available, like process 0 did. Legal outside the SPMD part.
  World* w = World::current();
  if (!w) return bspcheck::rt::available_processors();
  if (!bspcheck::rt::on_world_thread()) {
    bspcheck::rt::call_outside_world_thread("bsp_nprocs", Site{file, line, 0, pc});
    return w->nprocs();
  }
  const bool begun = w->self().begun;
  w->enter("bsp_nprocs", file, line, pc);
  return begun ? w->nprocs() : bspcheck::rt::available_processors();
}

int pid_query(const char* file, int line, const void* pc) {
  if (World::current() && !bspcheck::rt::on_world_thread()) {  // the answer: the thread's creator
    bspcheck::rt::call_outside_world_thread("bsp_pid", Site{file, line, 0, pc});
    const int creator = bspcheck::rt::creator_process();
    return creator < 0 ? 0 : creator;
  }
  World* w = enter_at("bsp_pid", file, line, pc);
  return w ? w->pid() : 0;
}

double time_query(const char* file, int line, const void* pc) {
  World* w = enter_at("bsp_time", file, line, pc);
  return w ? w->time() : 0.0;
}

}  // namespace

bspcheck::rt::World* bspcheck::rt::enter_call(const char* call, const void* pc) { return enter(call, pc); }
bspcheck::rt::World* bspcheck::rt::enter_call_at(const char* call, const Site& site) { return enter(call, site); }

extern "C" {

void bspcheck_set_site(const char* file, int line) {
  g_site_file = file;
  g_site_line = line;
}

// The source file and line of the call that returns to pc, from the program's debug information
// (libbspcheck_oxford's functions for programs that call them without a header's macro); the file
// name lives as long as the program. NULL where there is no debug information.
const char* bspcheck_call_source(const void* pc, int* line) {
  static std::set<std::string> files;
  const int saved_errno = errno;  // reading the debug information is the runtime's, not the program's
  std::string file;
  int at = 0;
  const bool known = bspcheck::rt::call_source(pc, file, at);
  errno = saved_errno;
  if (!known) return nullptr;
  *line = at;
  return files.insert(std::move(file)).first->c_str();
}

// bsp_begin's body (engine/frontends/begin_entry.cpp is its entry point). return_slot: where bsp_begin's
// return address lies (everything below is dead once it returns), or 0. Returns how many bytes
// just below return_slot the entry point clears after this returns: for process 0 of a program,
// on the main thread's stack, whose pages below those are cleared here; for processes 1..p-1, on
// fiber stacks, what this call wrote below.
__attribute__((visibility("hidden"))) std::size_t bspcheck_begin_from(int maxprocs, const void* return_address,
                                                                      std::uintptr_t return_slot) {
  const Site site = take_site(return_address);
  if (World* w = World::current()) {
    if (!bspcheck::rt::on_world_thread()) {
      bspcheck::rt::call_outside_world_thread("bsp_begin", site);
      return 0;
    }
    bspcheck::rt::Process& me = w->enter("bsp_begin", site);
    if (me.begun) {
      if (!sections_in_a_row(bspcheck::rt::program_dialect())) {
        w->report(Rule::api_misuse, "process " + std::to_string(me.pid) +
                                        " calls bsp_begin a second time; a program has one bsp_begin/bsp_end pair");
        return 0;
      }
      // MulticoreBSP 2.x nests SPMD sections; bsp-check runs one section at a time.
      w->report(Rule::api_misuse, "process " + std::to_string(me.pid) +
                                      " calls bsp_begin inside its SPMD section: nested sections are not supported "
                                      "(docs/dialects.md); the calls up to its bsp_end run in the enclosing section");
      if (me.refused_begins < UINT8_MAX) ++me.refused_begins;
      return 0;
    }
    me.begun = true;  // processes 1..p-1 arriving at the start of main or the SPMD function
    w->switch_point();
    // A fiber's stack was zeros below its caller's frame; what this call left there (its frames,
    // the switch's saved registers: addresses, which differ from run to run) is cleared by the
    // entry point once this has returned, so that the program finds zeros as process 0 does.
    return return_slot && me.stack.base ? me.stack.written_below(return_slot) : 0;
  }
  if (bspcheck::rt::Launch* l = bspcheck::rt::active_launch()) {
    bspcheck::rt::begin_in_process(*l, maxprocs, site);
    return 0;
  }
  bspcheck::rt::begin_program(maxprocs, site);
  if (!return_slot) return 0;
  // The pages below are cleared here; the rest, where this function's frames and those it calls
  // lie (a few hundred bytes), by the entry point once this has returned.
  constexpr std::uintptr_t kRoomForTheseFrames = 4096;
  const std::uintptr_t cleared_to = bspcheck::rt::clear_main_stack_pages_below(return_slot - kRoomForTheseFrames);
  return cleared_to ? return_slot - cleared_to : 0;
}

void bsp_end(void) {
  World* w = enter("bsp_end", SITE);
  if (!w) return;
  if (bspcheck::rt::Process& me = w->self(); me.refused_begins > 0) {  // closes a refused nested section
    --me.refused_begins;
    return;
  }
  w->end();
  if (!bspcheck::rt::active_launch()) bspcheck::rt::end_program();
}

// The queries, with their site (bsp.h's macros call the _at forms). They record the call like
// every other primitive, so that a crash or a finding right after one names its line, but they
// are not switch points: the paper gives them no effect another process could observe.
int bsp_nprocs(void) { return nprocs_query(nullptr, 0, SITE); }
int bsp_pid(void) { return pid_query(nullptr, 0, SITE); }
double bsp_time(void) { return time_query(nullptr, 0, SITE); }
int bspcheck_nprocs_at(const char* file, int line) { return nprocs_query(file, line, SITE); }
int bspcheck_pid_at(const char* file, int line) { return pid_query(file, line, SITE); }
double bspcheck_time_at(const char* file, int line) { return time_query(file, line, SITE); }

void bsp_sync(void) {
  if (World* w = enter("bsp_sync", SITE)) w->sync();
}

void bsp_abort(const char* format, ...) {
  char buf[4096];
  va_list ap;
  va_start(ap, format);
  std::vsnprintf(buf, sizeof buf, format ? format : "", ap);
  va_end(ap);
  if (!World::current()) {  // before bsp_begin (a usage error) or after bsp_end: the program stops
    const Site site{g_site_file, g_site_line, 0, SITE};
    g_site_file = nullptr;
    bspcheck::rt::abort_outside_spmd(buf, site);
  } else if (World* w = enter("bsp_abort", SITE)) {
    w->abort_run(buf);
  }
  std::fprintf(stderr, "bsp_abort: %s\n", buf);
  std::fflush(nullptr);
  std::_Exit(1);
}

void bsp_push_reg(const void* ident, int size) {
  if (World* w = enter("bsp_push_reg", SITE)) {
    w->push_reg(ident, size);
    w->switch_point();
  }
}

void bsp_pop_reg(const void* ident) {
  if (World* w = enter("bsp_pop_reg", SITE)) {
    w->pop_reg(ident);
    w->switch_point();
  }
}

void bsp_put(int pid, const void* src, void* dst, int offset, int nbytes) {
  if (World* w = enter("bsp_put", SITE)) {
    w->put(pid, src, dst, offset, nbytes, false);
    w->switch_point();
  }
}

void bsp_hpput(int pid, const void* src, void* dst, int offset, int nbytes) {
  if (World* w = enter("bsp_hpput", SITE)) {
    w->put(pid, src, dst, offset, nbytes, true);
    w->switch_point();
  }
}

void bsp_get(int pid, const void* src, int offset, void* dst, int nbytes) {
  if (World* w = enter("bsp_get", SITE)) {
    w->get(pid, src, offset, dst, nbytes, false);
    w->switch_point();
  }
}

void bsp_hpget(int pid, const void* src, int offset, void* dst, int nbytes) {
  if (World* w = enter("bsp_hpget", SITE)) {
    w->get(pid, src, offset, dst, nbytes, true);
    w->switch_point();
  }
}

void bsp_set_tagsize(int* tag_nbytes) {
  if (World* w = enter("bsp_set_tagsize", SITE)) {
    w->set_tagsize(tag_nbytes);
    w->switch_point();
  }
}

void bsp_send(int pid, const void* tag, const void* payload, int payload_nbytes) {
  if (World* w = enter("bsp_send", SITE)) {
    w->send(pid, tag, payload, payload_nbytes);
    w->switch_point();
  }
}

void bsp_qsize(int* nmessages, int* accum_nbytes) {
  if (World* w = enter("bsp_qsize", SITE)) {
    w->qsize(nmessages, accum_nbytes);
    w->switch_point();
  }
}

void bsp_get_tag(int* status, void* tag) {
  if (World* w = enter("bsp_get_tag", SITE)) {
    w->get_tag(status, tag);
    w->switch_point();
  }
}

void bsp_move(void* payload, int reception_nbytes) {
  if (World* w = enter("bsp_move", SITE)) {
    w->move(payload, reception_nbytes);
    w->switch_point();
  }
}

int bsp_hpmove(void** tag_ptr, void** payload_ptr) {
  if (World* w = enter("bsp_hpmove", SITE)) {
    const int payload_nbytes = w->hpmove(tag_ptr, payload_ptr);
    w->switch_point();
    return payload_nbytes;
  }
  return -1;
}

}  // extern "C"

// Level-1 hygiene brackets (include/bspcheck/hygiene.h).
extern "C" void bspcheck_level1_enter_at(const char* name, const char* file, int line) {
  if (World* w = World::current(); w && bspcheck::rt::on_world_thread())
    w->level1_enter(name, bspcheck::rt::with_wrapper_stack(Site{file, line, 0, __builtin_return_address(0)}));
}

extern "C" void bspcheck_level1_exit_at(const char* name, const char* file, int line) {
  if (World* w = World::current(); w && bspcheck::rt::on_world_thread())
    w->level1_exit(name, Site{file, line, 0, __builtin_return_address(0)});
}
