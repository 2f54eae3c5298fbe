// c_api.cpp: the C entry points of bsp.h over MPI: the 20 primitives, bsp.h's site-recording
// extensions, the Oxford toolset's additions, and the level-1 hygiene brackets (which only the
// engine checks, docs/mpi.md). Each takes the site bsp.h's macros left and hands the call to the
// rank (rank.hpp).
#define BSPCHECK_NO_SITE_MACROS
#include "bsp.h"

#include <cstdarg>
#include <cstdio>
#include <string>

#include "mpi/api/rank.hpp"

using bspcheck::mpi::CallSite;
using bspcheck::mpi::Rank;

namespace {

// The site of the next call, set by bsp.h's macros just before it (one thread: a BSP process).
const char* g_file = nullptr;
int g_line = 0;

// The call's site, taken (and cleared) from what the macro left; the rank charges the call.
Rank* enter(const char* call) {
  const CallSite site{g_file, g_line, call};
  g_file = nullptr;
  g_line = 0;
  Rank& r = Rank::the();
  return r.enter(site) ? &r : nullptr;
}

Rank* enter_at(const char* call, const char* file, int line) {
  g_file = file;
  g_line = line;
  return enter(call);
}

constexpr double kFlopSeconds = 1e-9;  // the toolset's machine parameters, as oxford_api.cpp gives them
double g_dtime_last = 0;

}  // namespace

extern "C" {

void bspcheck_set_site(const char* file, int line) {
  g_file = file;
  g_line = line;
}

void bsp_init(void (*spmd_part)(void), int argc, char* argv[]) {
  g_file = nullptr;
  Rank::the().init(spmd_part, argc, argv);
}

void bsp_begin(int maxprocs) {
  const CallSite site{g_file, g_line, "bsp_begin"};
  g_file = nullptr;
  Rank& r = Rank::the();
  r.begin(maxprocs);
  r.enter(site);
}

void bsp_end(void) {
  if (Rank* r = enter("bsp_end")) r->end();
}

void bsp_sync(void) {
  if (Rank* r = enter("bsp_sync")) r->sync();
}

void bsp_abort(const char* format, ...) {
  va_list args;
  va_start(args, format);
  char buf[4096];
  std::vsnprintf(buf, sizeof buf, format ? format : "", args);
  va_end(args);
  if (Rank* r = enter("bsp_abort")) r->abort(buf);
  // Outside the SPMD part (enter reported the misuse): the message, and the program ends.
  std::fputs(buf, stderr);
  std::fflush(nullptr);
  std::exit(1);
}

int bspcheck_nprocs_at(const char* file, int line) {
  Rank& r = Rank::the();
  if (!r.active()) return r.nprocs();  // before bsp_begin: the ranks available
  return enter_at("bsp_nprocs", file, line) ? r.nprocs() : 0;
}
int bspcheck_pid_at(const char* file, int line) {
  Rank* r = enter_at("bsp_pid", file, line);
  return r ? r->pid() : 0;
}
double bspcheck_time_at(const char* file, int line) {
  Rank* r = enter_at("bsp_time", file, line);
  return r ? r->time() : 0.0;
}
double bspcheck_dtime_at(const char* file, int line) {
  Rank* r = enter_at("bsp_dtime", file, line);
  if (!r) return 0.0;
  const double now = r->time(), elapsed = now - g_dtime_last;
  g_dtime_last = now;
  return elapsed > 0.0 ? elapsed : 0.0;
}
double bspcheck_cputime_at(const char* file, int line) {
  Rank* r = enter_at("bsp_cputime", file, line);
  return r ? r->time() : 0.0;
}
int bsp_nprocs(void) { return bspcheck_nprocs_at(nullptr, 0); }
int bsp_pid(void) { return bspcheck_pid_at(nullptr, 0); }
double bsp_time(void) { return bspcheck_time_at(nullptr, 0); }
double bsp_dtime(void) { return bspcheck_dtime_at(nullptr, 0); }
double bsp_cputime(void) { return bspcheck_cputime_at(nullptr, 0); }
double bsp_s(void) { return 1.0 / kFlopSeconds; }
double bsp_l(void) { return 1e-5 / kFlopSeconds; }
double bsp_g(void) { return 1e-9 * 4.0 / kFlopSeconds; }
int bsp_nhalf(void) { return 250; }

void bsp_push_reg(const void* ident, int size) {
  if (Rank* r = enter("bsp_push_reg")) r->push_reg(ident, size);
}
void bsp_pop_reg(const void* ident) {
  if (Rank* r = enter("bsp_pop_reg")) r->pop_reg(ident);
}
void bsp_put(int pid, const void* src, void* dst, int offset, int nbytes) {
  if (Rank* r = enter("bsp_put")) r->put(pid, src, dst, offset, nbytes, false);
}
void bsp_hpput(int pid, const void* src, void* dst, int offset, int nbytes) {
  if (Rank* r = enter("bsp_hpput")) r->put(pid, src, dst, offset, nbytes, true);
}
void bsp_get(int pid, const void* src, int offset, void* dst, int nbytes) {
  if (Rank* r = enter("bsp_get")) r->get(pid, src, offset, dst, nbytes, false);
}
void bsp_hpget(int pid, const void* src, int offset, void* dst, int nbytes) {
  if (Rank* r = enter("bsp_hpget")) r->get(pid, src, offset, dst, nbytes, true);
}

void bsp_set_tagsize(int* tag_nbytes) {
  if (Rank* r = enter("bsp_set_tagsize")) r->set_tagsize(tag_nbytes);
}
void bsp_send(int pid, const void* tag, const void* payload, int payload_nbytes) {
  if (Rank* r = enter("bsp_send")) r->send(pid, tag, payload, payload_nbytes);
}
void bsp_qsize(int* nmessages, int* accum_nbytes) {
  if (Rank* r = enter("bsp_qsize")) r->qsize(nmessages, accum_nbytes);
}
void bsp_get_tag(int* status, void* tag) {
  if (Rank* r = enter("bsp_get_tag")) r->get_tag(status, tag);
}
void bsp_move(void* payload, int reception_nbytes) {
  if (Rank* r = enter("bsp_move")) r->move(payload, reception_nbytes);
}
int bsp_hpmove(void** tag_ptr, void** payload_ptr) {
  Rank* r = enter("bsp_hpmove");
  return r ? r->hpmove(tag_ptr, payload_ptr) : -1;
}

// The caller's line for libbspcheck_oxford's functions called without bsp_level1.h's macros:
// the engine reads the debug information; here they are located at no line.
const char* bspcheck_call_source(const void*, int* line) {
  if (line) *line = 0;
  return nullptr;
}

// Level-1 hygiene (bspcheck/hygiene.h) is checked by the engine only: here the brackets are empty.
void bspcheck_level1_enter_at(const char*, const char*, int) {}
void bspcheck_level1_exit_at(const char*, const char*, int) {}

}  // extern "C"
