// bspk_api.cpp: the BSPk primitives with the C signatures of include/bspk.h (the paper's Table
// 1). Each records its call site and its trace record (replay/trace_format.hpp; not bspk_elemP,
// bspk_incr, bspk_sender_id and bspk_is_null, which are called in inner loops), hands the call to the BspkRuntime of the running world and ends
// in a switch point, like the BSPlib primitives (c_api.cpp).
#define BSPCHECK_NO_SITE_MACROS
#include "bspk.h"

#include "engine/bspk_runtime.hpp"
#include "engine/call_entry.hpp"
#include "engine/world.hpp"
#include "replay/trace_format.hpp"

#include <string>

using bspcheck::rt::BspkRuntime;
using bspcheck::rt::ComemPtr;
using bspcheck::rt::World;
using Call = bspcheck::trace::Call;

namespace {
World* enter(const char* call, const void* pc) { return bspcheck::rt::enter_call(call, pc); }
BspkRuntime& bspk(World& w) { return w.local_sync().client<BspkRuntime>(); }
bspk_ptr to_c(ComemPtr p) { return bspk_ptr{p.owner, p.region, p.elem}; }
ComemPtr from_c(bspk_ptr p) { return ComemPtr{p.owner, p.region, p.elem}; }
// A region's name and index as the bytes of its trace record's checksum.
void trace_name(World& w, Call call, const char* name, int idx, long size) {
  if (!w.tracing()) return;
  std::string key = (name ? name : "") + std::string(1, '\0') + std::to_string(idx);
  w.traced_call(call, -1, size, key.data(), key.size());
}
}  // namespace

#define BSPK_ENTER(name, fail)                             \
  World* w = enter(name, __builtin_return_address(0));     \
  if (!w) return fail

extern "C" {

int bspk_is_null(bspk_ptr p) { return p.owner == -1; }

bspk_ptr bspk_malloc(const char* name, int idx, long n, long size) {
  BSPK_ENTER("bspk_malloc", NULL_COMEM_PTR);
  trace_name(*w, Call::bspk_malloc, name, idx, n * size);
  bspk_ptr r = to_c(bspk(*w).malloc(name, idx, n, size));
  w->switch_point();
  return r;
}

bspk_ptr bspk_lookup(const char* name, int idx) {
  BSPK_ENTER("bspk_lookup", NULL_COMEM_PTR);
  trace_name(*w, Call::bspk_lookup, name, idx, 0);
  bspk_ptr r = to_c(bspk(*w).lookup(name, idx));
  w->switch_point();
  return r;
}

void bspk_free(bspk_ptr local) {
  BSPK_ENTER("bspk_free", );
  w->traced_call(Call::bspk_free, -1, 0);
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
  w->traced_call(Call::bspk_sync, -1, 0);
  bspk(*w).sync();
  w->switch_point();
}

void bspk_expect(int nmsgs) {
  BSPK_ENTER("bspk_expect", );
  w->traced_call(Call::bspk_expect, -1, nmsgs);
  bspk(*w).expect(nmsgs);
  w->switch_point();
}

void bspk_will_send(const int* nmsgs_per_pid) {
  BSPK_ENTER("bspk_will_send", );
  if (!nmsgs_per_pid) {
    w->report(bspcheck::Rule::api_misuse, "bspk_will_send(NULL)");
    return;
  }
  if (w->tracing()) {
    long total = 0;
    for (int q = 0; q < w->nprocs(); ++q) total += nmsgs_per_pid[q];
    w->traced_call(Call::bspk_will_send, -1, total, nmsgs_per_pid, sizeof(int) * static_cast<std::size_t>(w->nprocs()));
  }
  bspk(*w).will_send(nmsgs_per_pid);
  w->switch_point();
}

void bspk_send(int dest, bspk_ptr local, long n) {
  BSPK_ENTER("bspk_send", );
  // The bytes are n elements of the local region; the data itself is read at the sync.
  w->traced_call(Call::bspk_send, dest, n * bspk(*w).element_bytes(from_c(local)));
  bspk(*w).send(dest, from_c(local), n);
  w->switch_point();
}

bspk_ptr bspk_recv(void) {
  BSPK_ENTER("bspk_recv", NULL_COMEM_PTR);
  bspk_ptr r = to_c(bspk(*w).recv());
  w->traced_call(Call::bspk_recv, -1, bspk_is_null(r) ? -1 : bspk(*w).elements(from_c(r)) * bspk(*w).element_bytes(from_c(r)));
  w->switch_point();
  return r;
}

int bspk_sender_id(bspk_ptr local) {
  BSPK_ENTER("bspk_sender_id", -1);
  return bspk(*w).sender_id(from_c(local));
}

void bspk_copy(bspk_ptr dst, bspk_ptr src, long n) {
  BSPK_ENTER("bspk_copy", );
  if (w->tracing()) {  // which side is local decides the kind; the other side's owner is the target
    const int me = w->pid();
    const ComemPtr d = from_c(dst), s = from_c(src);
    BspkRuntime& k = bspk(*w);
    if (d.owner == me && s.owner == me) w->traced_call(Call::bspk_copy_local, me, n * k.element_bytes(d));
    else if (d.owner == me) w->traced_call(Call::bspk_fetch, k.owner_of(s), n * k.element_bytes(d));
    else w->traced_call(Call::bspk_store, k.owner_of(d), n * k.element_bytes(s));
  }
  bspk(*w).copy(from_c(dst), from_c(src), n);
  w->switch_point();
}

}  // extern "C"
