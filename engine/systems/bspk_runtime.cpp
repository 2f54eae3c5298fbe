// bspk_runtime.cpp: see bspk_runtime.hpp. Regions: allocation, lookup, pointers, freeing; the end.
// Sends and copies: bspk_transfers.cpp; the sync: bspk_sync.cpp.
#include "engine/systems/bspk_runtime.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>
#include <tuple>

#include "engine/core/world.hpp"
#include "engine/systems/bspk_text.hpp"

namespace bspcheck::rt {

using namespace bspk_text;

BspkRuntime::BspkRuntime(World& world)
    : world_(world),
      sync_(world.local_sync()),
      procs_(static_cast<std::size_t>(world.nprocs())),
      names_(world.nprocs(), [this](int pid, long s) { return passed(pid, s); }) {}

BspkRuntime::PerProcess& BspkRuntime::me() { return procs_[static_cast<std::size_t>(world_.pid())]; }

BspkRuntime::Use BspkRuntime::here(const char* what) {
  const Process& p = world_.self();
  return Use{what, p.site, p.pid, p.call, sync_.superstep(p.pid)};
}

bool BspkRuntime::passed(int pid, long s) const {
  const PerProcess& pp = procs_[static_cast<std::size_t>(pid)];
  return pp.ended || pp.entered_sync >= s || sync_.superstep(pid) > s;
}

void BspkRuntime::report_at(Rule rule, std::string message, const Use& use, std::vector<int> processes,
                            std::vector<std::tuple<Site, int, const char*>> more) {
  Finding f;
  f.rule = rule_id(rule);
  f.message = std::move(message);
  f.processes = processes.empty() ? std::vector<int>{use.pid} : std::move(processes);
  f.superstep = static_cast<int>(use.superstep);
  f.locations.push_back(world_.diagnostics().location(use.site, use.pid, use.call));
  for (const auto& [site, pid, call] : more) f.locations.push_back(world_.diagnostics().location(site, pid, call));
  world_.diagnostics().report(std::move(f));
}

void BspkRuntime::report_free_use(const Region& r, const ComemPtr& p, const Use& use) {
  std::vector<int> who{use.pid};
  if (p.owner != use.pid) who.push_back(p.owner);
  report_at(Rule::bspk_use_after_free,
            std::string(use.what) + " uses a comem region of process " + std::to_string(p.owner) + " (allocated at " +
                where(r.site) + ") after its bspk_free (" + where(r.free_site) + ")",
            use, who, {{r.free_site, p.owner, "bspk_free"}});
}

void BspkRuntime::bind(ComemPtr& p) {
  if (p.owner != -2) return;
  if (!names_.is_lookup(p.region)) {  // not made by bspk_lookup: an invalid pointer (reported at its use)
    p.owner = -3;
    return;
  }
  if (names_.decide(p.region) != ComemNames::Lookup::State::bound) return;
  const ComemNames::Allocation& a = names_.allocation(names_.lookup_at(p.region).allocation);
  p = ComemPtr{a.owner, a.region, p.elem};
}

BspkRuntime::Resolved BspkRuntime::resolve(ComemPtr& p, long use_superstep) {
  bind(p);
  if (p.owner != -2) return Resolved::bound;
  const int l = p.region;
  switch (names_.decide(l)) {
    case ComemNames::Lookup::State::pending:
      return Resolved::pending;
    case ComemNames::Lookup::State::bound:
      bind(p);
      return Resolved::bound;
    case ComemNames::Lookup::State::unknown:
      break;
  }
  const ComemNames::Lookup& k = names_.lookup_at(l);
  if (use_superstep <= k.superstep) return Resolved::none;
  const ComemNames::Found f = names_.find(k.name, k.idx, k.looker, use_superstep);
  if (!f.final) return Resolved::pending;
  if (f.allocation < 0) return Resolved::none;
  const ComemNames::Allocation& a = names_.allocation(f.allocation);
  p = ComemPtr{a.owner, a.region, p.elem};
  return Resolved::bound;
}

BspkRuntime::Region* BspkRuntime::region(const ComemPtr& p, const Use& use, Region** freed) {
  if (p.owner < 0 || p.owner >= world_.nprocs() || p.region < 0 ||
      static_cast<std::size_t>(p.region) >= procs_[static_cast<std::size_t>(p.owner)].regions.size()) {
    report_at(Rule::api_misuse, std::string(use.what) + " of a null or invalid comem pointer", use);
    return nullptr;
  }
  Region& r = procs_[static_cast<std::size_t>(p.owner)].regions[static_cast<std::size_t>(p.region)];
  if (r.freed) {
    if (freed) *freed = &r;
    else report_free_use(r, p, use);
    return nullptr;
  }
  return &r;
}

bool BspkRuntime::in_bounds(const Region& r, long elem, long n, const Use& use) {
  // Written so that no sum overflows: elem + n of a huge count would wrap and pass.
  if (elem >= 0 && n >= 0 && elem <= r.n && n <= r.n - elem) return true;
  long end = 0;
  const std::string last =
      __builtin_add_overflow(elem, n, &end) ? std::to_string(elem) + "+" + std::to_string(n) : std::to_string(end);
  report_at(Rule::bspk_out_of_bounds,
            std::string(use.what) + " of elements " + std::to_string(elem) + ".." + last + " of a region of " +
                std::to_string(r.n) + " elements (allocated at " + where(r.site) + ")",
            use);
  return false;
}

void BspkRuntime::report_names() {
  for (int l : names_.take_unknown()) {
    const ComemNames::Lookup& k = names_.lookup_at(l);
    std::string why;
    for (int a : names_.freed_by(k.name, k.idx, k.superstep)) {
      const ComemNames::Allocation& r = names_.allocation(a);
      why += "; the region process " + std::to_string(r.owner) + " allocated under it (" + where(r.site) +
             ") was freed in superstep " + std::to_string(r.freed_in) + " (" + where(r.free_site) + ")";
    }
    report_at(Rule::bspk_lookup_unknown,
              "bspk_lookup" + named(k.name, k.idx) + " in superstep " + std::to_string(k.superstep) +
                  ": no process has allocated that name and index by the end of the superstep (a lookup is "
                  "guaranteed only a region allocated by then)" +
                  why,
              Use{"bspk_lookup", k.site, k.looker, "bspk_lookup", k.superstep});
  }
  for (const ComemNames::Conflict& c : names_.take_conflicts()) {
    const ComemNames::Allocation& a = names_.allocation(c.later);
    const ComemNames::Allocation& b = names_.allocation(c.earlier);
    std::vector<int> who{a.owner};
    if (b.owner != a.owner) who.push_back(b.owner);
    report_at(Rule::bspk_double_alloc,
              "bspk_malloc" + named(a.name, a.idx) + " by process " + std::to_string(a.owner) + " in superstep " +
                  std::to_string(a.superstep) + ": the name and index are already allocated by process " +
                  std::to_string(b.owner) + " (" + where(b.site) + ", superstep " + std::to_string(b.superstep) +
                  ") and not freed before",
              Use{"bspk_malloc", a.site, a.owner, "bspk_malloc", a.superstep}, who, {{b.site, b.owner, "bspk_malloc"}});
  }
}

ComemPtr BspkRuntime::malloc(const char* name, int idx, long n, long size) {
  const int pid = world_.pid();
  if (n < 0 || size <= 0) {
    sync_.report(Rule::api_misuse, "bspk_malloc of " + std::to_string(n) + " elements of " + std::to_string(size) +
                                       " bytes: both must be positive (n may be 0)");
    return {};
  }
  // The region holds n * size bytes; a product past the range of a long (or of what can be
  // allocated) is no region: reported, and the null pointer returned, never a region whose
  // elements lie outside the memory behind it.
  long bytes = 0;
  if (__builtin_mul_overflow(n, size, &bytes)) {
    sync_.report(Rule::api_misuse, "bspk_malloc of " + std::to_string(n) + " elements of " + std::to_string(size) +
                                       " bytes: the region's size overflows a long; returns NULL_COMEM_PTR");
    return {};
  }
  PerProcess& pp = me();
  Region r;
  r.n = n;
  r.size = size;
  try {
    r.data.assign(static_cast<std::size_t>(bytes), 0);
  } catch (const std::bad_alloc&) {
    sync_.report(Rule::out_of_memory, "bspk_malloc of " + std::to_string(n) + " elements of " + std::to_string(size) +
                                          " bytes (" + std::to_string(bytes) +
                                          " bytes) cannot be allocated; returns NULL_COMEM_PTR");
    return {};
  } catch (const std::length_error&) {
    sync_.report(Rule::out_of_memory, "bspk_malloc of " + std::to_string(n) + " elements of " + std::to_string(size) +
                                          " bytes (" + std::to_string(bytes) +
                                          " bytes) cannot be allocated; returns NULL_COMEM_PTR");
    return {};
  }
  r.site = world_.self().site;
  pp.regions.push_back(std::move(r));
  ComemPtr p{pid, static_cast<int>(pp.regions.size() - 1), 0};
  if (name && *name) {
    pp.regions.back().allocation = names_.allocate(name, idx, pid, p.region, sync_.superstep(pid), world_.self().site);
    report_names();
    sync_.notify_all();  // a process may wait for this name (a lookup used in its sync)
  }
  return p;
}

ComemPtr BspkRuntime::lookup(const char* name, int idx) {
  const int pid = world_.pid();
  // The region may be allocated later in this superstep (the paper's Figure 6), or freed by an
  // owner that is behind: a lookup not decided now is decided later (engine/systems/bspk_names.hpp).
  const ComemNames::Looked l = names_.lookup(name ? name : "", idx, pid, sync_.superstep(pid), world_.self().site);
  if (l.allocation >= 0) {
    const ComemNames::Allocation& a = names_.allocation(l.allocation);
    return ComemPtr{a.owner, a.region, 0};
  }
  return ComemPtr{-2, l.lookup, 0};
}

void BspkRuntime::free(ComemPtr p) {
  const int pid = world_.pid();
  bind(p);
  if (p.owner != pid) {
    sync_.report(Rule::api_misuse, "bspk_free of a comem pointer that is not local");
    return;
  }
  const Use use = here("bspk_free");
  Region* r = region(p, use);
  if (!r) return;
  r->freed = true;
  r->free_site = use.site;
  // The paper's rule 2: a region used by a send or copy is freed "not before the subsequent
  // bspk_sync", which reads (or, for a fetch, writes) it.
  for (Op& op : me().issued) {
    const bool src = op.kind != OpKind::fetch && op.src.owner == pid && op.src.region == p.region;
    const bool dst =
        (op.kind == OpKind::fetch || op.kind == OpKind::local_copy) && op.dst.owner == pid && op.dst.region == p.region;
    if ((!src && !dst) || op.free_reported) continue;
    op.free_reported = true;
    report_at(
        Rule::bspk_use_after_free,
        "bspk_free of a comem region (allocated at " + where(r->site) + ") that the " + call_of(op.kind) + " at " +
            where(op.site) + " still " + (src ? "reads" : "writes") +
            " at the next bspk_sync: free it after that sync (the paper: \"not before the subsequent bspk_sync\")",
        use, {}, {{op.site, pid, call_of(op.kind)}});
  }
  if (r->allocation >= 0) {
    names_.release(r->allocation, use.superstep, use.site);
    report_names();
    sync_.notify_all();
  }
}

void* BspkRuntime::elem_ptr(ComemPtr p) {
  const int pid = world_.pid();
  bind(p);
  if (p.owner == -2) {
    const ComemNames::Lookup& k = names_.lookup_at(p.region);
    sync_.report(Rule::bspk_remote_elemp, "bspk_elemP of the pointer bspk_lookup" + named(k.name, k.idx) + " (" +
                                              where(k.site) + ") returned, which names no region of this process");
    return nullptr;
  }
  if (p.owner >= 0 && p.owner != pid) {
    sync_.report(Rule::bspk_remote_elemp, "bspk_elemP of a comem pointer into process " + std::to_string(p.owner) +
                                              "'s memory: only local comem can be dereferenced; use bspk_copy");
    return nullptr;
  }
  const Use use = here("bspk_elemP");
  Region* r = region(p, use);
  if (!r || !in_bounds(*r, p.elem, 1, use)) return nullptr;
  return r->data.data() + p.elem * r->size;
}

ComemPtr BspkRuntime::incr(ComemPtr p, long amount) {
  ComemPtr q = p;
  // A sum past the range of a long is out of every region: it is kept at the bound it passed.
  const bool wrapped = __builtin_add_overflow(p.elem, amount, &q.elem);
  if (wrapped) q.elem = amount > 0 ? std::numeric_limits<long>::max() : std::numeric_limits<long>::min();
  bind(p);
  if (p.owner == -2) return q;  // a lookup not decided yet: checked at its use
  const Use use = here("bspk_incr");
  Region* r = region(p, use);
  if (r && (wrapped || q.elem < 0 || q.elem > r->n))
    sync_.report(Rule::bspk_out_of_bounds,
                 "bspk_incr by " + std::to_string(amount) + " to element " +
                     (wrapped ? std::to_string(p.elem) + "+" + std::to_string(amount) : std::to_string(q.elem)) +
                     " of a region of " + std::to_string(r->n) + " elements (allocated at " + where(r->site) + ")");
  return q;
}

void BspkRuntime::before_end(int pid) {
  // Sends and copies are posted at the issuer's next bspk_sync (the paper: communication appears
  // to take place at superstep boundaries); issued after the last one, they never happen.
  PerProcess& pp = procs_[static_cast<std::size_t>(pid)];
  const Process& self = world_.processes()[static_cast<std::size_t>(pid)];
  for (const Op& op : pp.issued) {
    const char* call = call_of(op.kind);
    const char* what = op.kind == OpKind::send         ? "bspk_send"
                       : op.kind == OpKind::local_copy ? "local bspk_copy"
                       : op.kind == OpKind::store      ? "bspk_copy (store)"
                                                       : "bspk_copy (fetch)";
    report_at(Rule::bspk_unsent_at_end,
              "process " + std::to_string(pid) + " reaches bsp_end with its " + what + " of superstep " +
                  std::to_string(op.superstep) + " (" + where(op.site) +
                  ") never done: sends and copies take effect at the next bspk_sync (the paper, section 3: "
                  "\"DSM copy calls also take effect at the point of the subsequent sync\"), and there is none",
              Use{call, op.site, pid, call, op.superstep}, {}, {{self.site, pid, "bsp_end"}});
  }
  pp.issued.clear();
  pp.ended = true;
  report_names();
  sync_.notify_all();
}

}  // namespace bspcheck::rt
