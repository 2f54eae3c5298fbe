// bspk_api.cpp: the BSPk primitives with the C signatures of include/bspk.h (the paper's Table
// 1). Each records its call site and its trace record (replay/trace_format.hpp; not bspk_elemP,
// bspk_incr, bspk_sender_id and bspk_is_null, which are called in inner loops), hands the call to the BspkRuntime of
// the running world and ends in a switch point, like the BSPlib primitives (c_api.cpp).
#define BSPCHECK_NO_SITE_MACROS
#include "bspk.h"

#include "engine/systems/bspk_runtime.hpp"
#include "engine/frontends/call_entry.hpp"
#include "engine/core/world.hpp"
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

#define BSPK_ENTER(name, fail)                         \
  World* w = enter(name, __builtin_return_address(0)); \
  if (!w) return fail

// The calls whose results are often another call's arguments (bspk_copy(bspk_incr(p, k), ...))
// have _at forms that take their site as arguments (bspk.h's macros call them), like bsp.h's
// queries: a nested call must not consume the site the enclosing call's macro left.
namespace {
using bspcheck::rt::Site;

// The bytes of n elements of `size` bytes, as a trace's size field: the product wrapped (a count
// the runtime then reports as out of bounds or too large may not fit in a long; that is no
// undefined behaviour in the entry point).
long traced_bytes(long n, long size) {
  return static_cast<long>(static_cast<unsigned long>(n) * static_cast<unsigned long>(size));
}

bspk_ptr do_malloc(World* w, const char* name, int idx, long n, long size) {
  if (!w) return NULL_COMEM_PTR;
  trace_name(*w, Call::bspk_malloc, name, idx, traced_bytes(n, size));
  bspk_ptr r = to_c(bspk(*w).malloc(name, idx, n, size));
  w->switch_point();
  return r;
}

bspk_ptr do_lookup(World* w, const char* name, int idx) {
  if (!w) return NULL_COMEM_PTR;
  trace_name(*w, Call::bspk_lookup, name, idx, 0);
  bspk_ptr r = to_c(bspk(*w).lookup(name, idx));
  w->switch_point();
  return r;
}

void* do_elemP(World* w, bspk_ptr local) {
  return w ? bspk(*w).elem_ptr(from_c(local)) : nullptr;  // no switch point: called in inner loops
}

bspk_ptr do_incr(World* w, bspk_ptr p, long amount) { return w ? to_c(bspk(*w).incr(from_c(p), amount)) : p; }

bspk_ptr do_recv(World* w) {
  if (!w) return NULL_COMEM_PTR;
  bspk_ptr r = to_c(bspk(*w).recv());
  w->traced_call(Call::bspk_recv, -1,
                 bspk_is_null(r) ? -1 : bspk(*w).elements(from_c(r)) * bspk(*w).element_bytes(from_c(r)));
  w->switch_point();
  return r;
}

int do_sender_id(World* w, bspk_ptr local) { return w ? bspk(*w).sender_id(from_c(local)) : -1; }

World* at(const char* call, const char* file, int line, const void* pc) {
  return bspcheck::rt::enter_call_at(call, Site{file, line, 0, pc});
}
}  // namespace

#define PC __builtin_return_address(0)

extern "C" {

int bspk_is_null(bspk_ptr p) { return p.owner == -1; }

// Called without the macros (C++, a function pointer), they leave any pending site alone too:
// bspk_copy(bspk_incr(p, k), ...) in C++ keeps the site a test set for the bspk_copy.
bspk_ptr bspk_malloc(const char* name, int idx, long n, long size) {
  return do_malloc(at("bspk_malloc", nullptr, 0, PC), name, idx, n, size);
}
bspk_ptr bspk_lookup(const char* name, int idx) { return do_lookup(at("bspk_lookup", nullptr, 0, PC), name, idx); }
void* bspk_elemP(bspk_ptr local) { return do_elemP(at("bspk_elemP", nullptr, 0, PC), local); }
bspk_ptr bspk_incr(bspk_ptr p, long amount) { return do_incr(at("bspk_incr", nullptr, 0, PC), p, amount); }
bspk_ptr bspk_recv(void) { return do_recv(at("bspk_recv", nullptr, 0, PC)); }
int bspk_sender_id(bspk_ptr local) { return do_sender_id(at("bspk_sender_id", nullptr, 0, PC), local); }

bspk_ptr bspcheck_bspk_malloc_at(const char* file, int line, const char* name, int idx, long n, long size) {
  return do_malloc(at("bspk_malloc", file, line, PC), name, idx, n, size);
}
bspk_ptr bspcheck_bspk_lookup_at(const char* file, int line, const char* name, int idx) {
  return do_lookup(at("bspk_lookup", file, line, PC), name, idx);
}
void* bspcheck_bspk_elemP_at(const char* file, int line, bspk_ptr local) {
  return do_elemP(at("bspk_elemP", file, line, PC), local);
}
bspk_ptr bspcheck_bspk_incr_at(const char* file, int line, bspk_ptr p, long amount) {
  return do_incr(at("bspk_incr", file, line, PC), p, amount);
}
bspk_ptr bspcheck_bspk_recv_at(const char* file, int line) { return do_recv(at("bspk_recv", file, line, PC)); }
int bspcheck_bspk_sender_id_at(const char* file, int line, bspk_ptr local) {
  return do_sender_id(at("bspk_sender_id", file, line, PC), local);
}

void bspk_free(bspk_ptr local) {
  BSPK_ENTER("bspk_free", );
  w->traced_call(Call::bspk_free, -1, 0);
  bspk(*w).free(from_c(local));
  w->switch_point();
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
    bspk(*w).will_send(nullptr);  // reported in the process's own superstep
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
  w->traced_call(Call::bspk_send, dest, traced_bytes(n, bspk(*w).element_bytes(from_c(local))));
  bspk(*w).send(dest, from_c(local), n);
  w->switch_point();
}

void bspk_copy(bspk_ptr dst, bspk_ptr src, long n) {
  BSPK_ENTER("bspk_copy", );
  if (w->tracing()) {  // which side is local decides the kind; the other side's owner is the target
    const int me = w->pid();
    const ComemPtr d = from_c(dst), s = from_c(src);
    BspkRuntime& k = bspk(*w);
    if (d.owner == me && s.owner == me) w->traced_call(Call::bspk_copy_local, me, traced_bytes(n, k.element_bytes(d)));
    else if (d.owner == me) w->traced_call(Call::bspk_fetch, k.owner_of(s), traced_bytes(n, k.element_bytes(d)));
    else w->traced_call(Call::bspk_store, k.owner_of(d), traced_bytes(n, k.element_bytes(s)));
  }
  bspk(*w).copy(from_c(dst), from_c(src), n);
  w->switch_point();
}

}  // extern "C"
