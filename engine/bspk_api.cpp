// bspk_api.cpp: the BSPk primitives with the C signatures of include/bspk.h (the paper's Table
// 1). Each records its call site, hands the call to the BspkRuntime of the running world and ends
// in a switch point, like the BSPlib primitives (c_api.cpp).
#define BSPCHECK_NO_SITE_MACROS
#include "bspk.h"

#include "engine/bspk_runtime.hpp"
#include "engine/call_entry.hpp"
#include "engine/world.hpp"

using bspcheck::rt::BspkRuntime;
using bspcheck::rt::ComemPtr;
using bspcheck::rt::World;

namespace {
World* enter(const char* call, const void* pc) { return bspcheck::rt::enter_call(call, pc); }
BspkRuntime& bspk(World& w) { return w.local_sync().client<BspkRuntime>(); }
bspk_ptr to_c(ComemPtr p) { return bspk_ptr{p.owner, p.region, p.elem}; }
ComemPtr from_c(bspk_ptr p) { return ComemPtr{p.owner, p.region, p.elem}; }
}  // namespace

#define BSPK_ENTER(name, fail)                             \
  World* w = enter(name, __builtin_return_address(0));     \
  if (!w) return fail

extern "C" {

int bspk_is_null(bspk_ptr p) { return p.owner == -1; }

bspk_ptr bspk_malloc(const char* name, int idx, long n, long size) {
  BSPK_ENTER("bspk_malloc", NULL_COMEM_PTR);
  bspk_ptr r = to_c(bspk(*w).malloc(name, idx, n, size));
  w->switch_point();
  return r;
}

bspk_ptr bspk_lookup(const char* name, int idx) {
  BSPK_ENTER("bspk_lookup", NULL_COMEM_PTR);
  bspk_ptr r = to_c(bspk(*w).lookup(name, idx));
  w->switch_point();
  return r;
}

void bspk_free(bspk_ptr local) {
  BSPK_ENTER("bspk_free", );
  bspk(*w).free(from_c(local));
  w->switch_point();
}

void* bspk_elemP(bspk_ptr local) {
  BSPK_ENTER("bspk_elemP", nullptr);
  return bspk(*w).elem_ptr(from_c(local));  // no switch point: called in inner loops
}

bspk_ptr bspk_incr(bspk_ptr p, long amount) {
  BSPK_ENTER("bspk_incr", p);
  return to_c(bspk(*w).incr(from_c(p), amount));
}

void bspk_sync(void) {
  BSPK_ENTER("bspk_sync", );
  bspk(*w).sync();
  w->switch_point();
}

void bspk_expect(int nmsgs) {
  BSPK_ENTER("bspk_expect", );
  bspk(*w).expect(nmsgs);
  w->switch_point();
}

void bspk_will_send(const int* nmsgs_per_pid) {
  BSPK_ENTER("bspk_will_send", );
  if (!nmsgs_per_pid) {
    w->report(bspcheck::Rule::api_misuse, "bspk_will_send(NULL)");
    return;
  }
  bspk(*w).will_send(nmsgs_per_pid);
  w->switch_point();
}

void bspk_send(int dest, bspk_ptr local, long n) {
  BSPK_ENTER("bspk_send", );
  bspk(*w).send(dest, from_c(local), n);
  w->switch_point();
}

bspk_ptr bspk_recv(void) {
  BSPK_ENTER("bspk_recv", NULL_COMEM_PTR);
  bspk_ptr r = to_c(bspk(*w).recv());
  w->switch_point();
  return r;
}

int bspk_sender_id(bspk_ptr local) {
  BSPK_ENTER("bspk_sender_id", -1);
  return bspk(*w).sender_id(from_c(local));
}

void bspk_copy(bspk_ptr dst, bspk_ptr src, long n) {
  BSPK_ENTER("bspk_copy", );
  bspk(*w).copy(from_c(dst), from_c(src), n);
  w->switch_point();
}

}  // extern "C"
