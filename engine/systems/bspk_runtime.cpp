// bspk_runtime.cpp: see bspk_runtime.hpp.
#include "engine/systems/bspk_runtime.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>
#include <tuple>

#include "engine/core/world.hpp"

namespace bspcheck::rt {

namespace {
std::string where(const Site& s) {
  if (!s.file) return "?";
  std::string f(s.file);
  return f.substr(f.find_last_of('/') + 1) + ":" + std::to_string(s.line);
}
std::string pids(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s.empty() ? "none" : s;
}
std::string named(const std::string& name, int idx) { return "(\"" + name + "\", " + std::to_string(idx) + ")"; }
}  // namespace

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
    case ComemNames::Lookup::State::pending: return Resolved::pending;
    case ComemNames::Lookup::State::bound: bind(p); return Resolved::bound;
    case ComemNames::Lookup::State::unknown: break;
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
  const std::string last = __builtin_add_overflow(elem, n, &end) ? std::to_string(elem) + "+" + std::to_string(n)
                                                                 : std::to_string(end);
  report_at(Rule::bspk_out_of_bounds, std::string(use.what) + " of elements " + std::to_string(elem) + ".." + last +
                                          " of a region of " + std::to_string(r.n) + " elements (allocated at " +
                                          where(r.site) + ")",
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
                  "guaranteed only a region allocated by then)" + why,
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
    const bool dst = (op.kind == OpKind::fetch || op.kind == OpKind::local_copy) && op.dst.owner == pid &&
                     op.dst.region == p.region;
    if ((!src && !dst) || op.free_reported) continue;
    op.free_reported = true;
    report_at(Rule::bspk_use_after_free,
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
    sync_.report(Rule::bspk_out_of_bounds, "bspk_incr by " + std::to_string(amount) + " to element " +
                                               (wrapped ? std::to_string(p.elem) + "+" + std::to_string(amount)
                                                        : std::to_string(q.elem)) +
                                               " of a region of " + std::to_string(r->n) +
                                               " elements (allocated at " + where(r->site) + ")");
  return q;
}

void BspkRuntime::send(int dest, ComemPtr p, long n) {
  const int pid = world_.pid();
  if (dest < 0 || dest >= world_.nprocs()) {
    sync_.report(Rule::bad_pid, "bspk_send to process " + std::to_string(dest));
    return;
  }
  bind(p);
  if (p.owner != pid) {
    sync_.report(Rule::api_misuse, "bspk_send of a comem pointer that is not local");
    return;
  }
  const Use use = here("bspk_send");
  Op op{OpKind::send, pid, sync_.superstep(pid), {}, p, n, dest, {}, use.site};
  if (!check_local(op, p, n, use)) return;
  me().issued.push_back(std::move(op));
}

bool BspkRuntime::check_local(Op& op, const ComemPtr& p, long n, const Use& use) {
  // Wrong but still a message (the receiver counts it): reported here, sent without effect or
  // with what the freed memory holds, so that one bug gives one finding.
  Region* freed = nullptr;
  Region* r = region(p, use, &freed);
  if (freed) {
    report_free_use(*freed, p, use);
    op.free_reported = true;
    r = freed;
  }
  if (!r) return false;  // no region at all (reported)
  op.dud = !in_bounds(*r, p.elem, n, use) || op.dud;
  return true;
}

void BspkRuntime::copy(ComemPtr dst, ComemPtr src, long n) {
  const int pid = world_.pid();
  bind(dst);
  bind(src);
  const bool dst_local = dst.owner == pid, src_local = src.owner == pid;
  const bool undecided = dst.owner == -2 || src.owner == -2;
  if (!dst_local && !src_local && !undecided) {
    sync_.report(Rule::bspk_copy_nonlocal, "bspk_copy between two comem pointers neither of which is local to process " +
                                               std::to_string(pid) + ": at least one side must be local");
    return;
  }
  // The local side is checked now; the remote one (perhaps a lookup decided later) when posted,
  // and a copy whose sides are both lookups not decided yet is classified then.
  const Use use = here("bspk_copy");
  const OpKind kind = dst_local && src_local ? OpKind::local_copy : src_local ? OpKind::store : OpKind::fetch;
  Op op{kind, pid, sync_.superstep(pid), dst, src, n, -1, {}, use.site};
  if (dst_local && !check_local(op, dst, n, use)) return;
  if (src_local && !check_local(op, src, n, use)) return;
  me().issued.push_back(std::move(op));
}

int BspkRuntime::owner_of(ComemPtr p) {
  bind(p);
  return p.owner >= 0 ? p.owner : -1;
}

long BspkRuntime::elements(ComemPtr p) {
  bind(p);
  if (p.owner < 0 || p.owner >= world_.nprocs() || p.region < 0) return 0;
  const auto& regions = procs_[static_cast<std::size_t>(p.owner)].regions;
  return static_cast<std::size_t>(p.region) < regions.size() ? regions[static_cast<std::size_t>(p.region)].n : 0;
}

long BspkRuntime::element_bytes(ComemPtr p) {
  bind(p);
  if (p.owner < 0 || p.owner >= world_.nprocs() || p.region < 0) return 0;
  const auto& regions = procs_[static_cast<std::size_t>(p.owner)].regions;
  return static_cast<std::size_t>(p.region) < regions.size() ? regions[static_cast<std::size_t>(p.region)].size : 0;
}

ComemPtr BspkRuntime::recv() {
  PerProcess& pp = me();
  if (pp.next_recv >= pp.received.size()) return {};
  return pp.received[pp.next_recv++];
}

int BspkRuntime::sender_id(ComemPtr p) {
  bind(p);
  if (p.owner == -2) return -1;
  Region* r = region(p, here("bspk_sender_id"));
  return r ? r->sender : -1;
}

void BspkRuntime::retract_will_send(const char* call) {
  // A second announcement of the superstep replaces the first (as a second bspk_expect does):
  // the earlier bspk_will_send leaves the column sums and the count of announcers. Reported:
  // other processes may have taken their counts from it already (then which sum they used would
  // be the schedule's), and Table 1 announces once per superstep.
  PerProcess& pp = me();
  if (pp.announce != Announce::will_send) return;
  const long s = sync_.superstep(world_.pid());
  sync_.report(Rule::api_misuse, std::string(call) + " after bspk_will_send (" + where(pp.will_site) +
                                     ") in the same superstep " + std::to_string(s) +
                                     ": a process announces its messages once per superstep (the paper, Table 1); "
                                     "the earlier announcement is withdrawn, but other processes may have counted on it");
  auto& sum = will_sum_[s];
  for (int q = 0; q < world_.nprocs(); ++q) sum[static_cast<std::size_t>(q)] -= pp.will[static_cast<std::size_t>(q)];
  --will_calls_[s];
  pp.announce = Announce::none;
}

void BspkRuntime::expect(int nmsgs) {
  if (nmsgs < 0) {
    sync_.report(Rule::api_misuse, "bspk_expect(" + std::to_string(nmsgs) +
                                       "): the number of messages must be >= 0; taken as bspk_expect(0)");
    nmsgs = 0;
  }
  retract_will_send("bspk_expect");
  PerProcess& pp = me();
  pp.announce = Announce::expect;
  pp.expected = nmsgs;
}

void BspkRuntime::will_send(const int* per_pid) {
  if (!per_pid) {
    sync_.report(Rule::api_misuse, "bspk_will_send(NULL)");
    return;
  }
  retract_will_send("bspk_will_send");
  PerProcess& pp = me();
  const long s = sync_.superstep(world_.pid());
  pp.announce = Announce::will_send;
  pp.will.assign(per_pid, per_pid + world_.nprocs());
  std::string negative;
  for (int q = 0; q < world_.nprocs(); ++q)
    if (pp.will[static_cast<std::size_t>(q)] < 0) {
      negative += (negative.empty() ? "" : ", ") + std::string("[") + std::to_string(q) +
                  "] = " + std::to_string(pp.will[static_cast<std::size_t>(q)]);
      pp.will[static_cast<std::size_t>(q)] = 0;
    }
  if (!negative.empty())
    sync_.report(Rule::api_misuse, "bspk_will_send with negative numbers of messages (" + negative +
                                       "): each must be >= 0; taken as 0");
  pp.will_site = world_.self().site;
  auto& sum = will_sum_[s];
  sum.resize(static_cast<std::size_t>(world_.nprocs()), 0);
  for (int q = 0; q < world_.nprocs(); ++q) sum[static_cast<std::size_t>(q)] += pp.will[static_cast<std::size_t>(q)];
  ++will_calls_[s];
  sync_.notify_all();
}

bool BspkRuntime::overlapping(const std::vector<std::pair<ComemPtr, long>>& ranges) {
  for (std::size_t i = 0; i < ranges.size(); ++i)
    for (std::size_t j = i + 1; j < ranges.size(); ++j) {
      const auto& [a, an] = ranges[i];
      const auto& [b, bn] = ranges[j];
      if (a.owner == b.owner && a.region == b.region && a.elem < b.elem + bn && b.elem < a.elem + an) return true;
    }
  return false;
}

bool BspkRuntime::overlapping(const std::vector<std::pair<ComemPtr, long>>& x,
                              const std::vector<std::pair<ComemPtr, long>>& y) {
  for (const auto& [a, an] : x)
    for (const auto& [b, bn] : y)
      if (a.owner == b.owner && a.region == b.region && a.elem < b.elem + bn && b.elem < a.elem + an) return true;
  return false;
}

long BspkRuntime::tagged(int pid, long s) const {
  long n = 0;
  for (const Op& op : procs_[static_cast<std::size_t>(pid)].inbox) n += op.superstep == s;
  return n;
}

// The messages pid must have before it leaves superstep s, or -1 while that is not known yet.
long BspkRuntime::expected_now(int pid, long s) const {
  const PerProcess& pp = procs_[static_cast<std::size_t>(pid)];
  switch (pp.announce) {
    case Announce::expect: return pp.expected;
    case Announce::will_send: {
      auto c = will_calls_.find(s);
      if (c == will_calls_.end() || c->second < world_.nprocs()) return -1;
      return will_sum_.at(s)[static_cast<std::size_t>(pid)];
    }
    case Announce::none: {  // a barrier: once every process has entered, everything is posted
      auto e = entered_.find(s);
      if (e == entered_.end() || e->second < world_.nprocs()) return -1;
      return tagged(pid, s);
    }
  }
  return -1;
}

void BspkRuntime::report_count(const std::string& msg, std::vector<int> who, long s,
                               const std::vector<std::tuple<Site, int, const char*>>& sites) {
  Finding f;
  f.rule = rule_id(Rule::bspk_count_mismatch);
  f.message = msg;
  f.processes = std::move(who);
  f.superstep = static_cast<int>(s);
  for (const auto& [site, pid, call] : sites) f.locations.push_back(world_.diagnostics().location(site, pid, call));
  world_.diagnostics().report(std::move(f));
}

int BspkRuntime::post(Op op) {
  const int pid = world_.pid();
  const Use use{op.kind == OpKind::send ? "bspk_send" : "bspk_copy", op.site, pid, call_of(op.kind), op.superstep};
  // A lookup not decided yet names a region that may be allocated later in the lookup's
  // superstep, or freed by an owner that is behind: wait until nothing can change what it names.
  for (ComemPtr* side : {&op.dst, &op.src}) {
    if (side->owner != -2) continue;
    const int l = side->region;
    const long u = op.superstep;
    ComemPtr probe = *side;
    if (resolve(probe, u) == Resolved::pending)
      sync_.wait_until({[this, probe, u] {
                          ComemPtr q = probe;
                          return resolve(q, u) != Resolved::pending;
                        },
                        [this, l] {
                          const ComemNames::Lookup& k = names_.lookup_at(l);
                          return "waits in bspk_sync until every process has passed superstep " +
                                 std::to_string(k.superstep) + ", to know what bspk_lookup" + named(k.name, k.idx) +
                                 " (" + where(k.site) + ") names";
                        },
                        Rule::bspk_lookup_unknown, 0});
    report_names();
    // Unknown: reported once, at the lookup; the copy has nowhere to go.
    if (resolve(*side, u) != Resolved::bound) return -1;
  }
  if (op.kind != OpKind::send) {  // which side is local is known only now for two lookups
    const bool dst_local = op.dst.owner == pid, src_local = op.src.owner == pid;
    if (!dst_local && !src_local) {
      report_at(Rule::bspk_copy_nonlocal,
                "bspk_copy between two comem pointers neither of which is local to process " + std::to_string(pid) +
                    ": at least one side must be local",
                use);
      return -1;
    }
    op.kind = dst_local && src_local ? OpKind::local_copy : src_local ? OpKind::store : OpKind::fetch;
  }
  // A send or copy found wrong here is reported and still a message to its process, with no
  // effect (`dud`): on a real machine it is sent, and the receiver counts it, so one bug gives
  // one finding and no count mismatch after it. A freed region is still read (a real machine
  // sends what the memory holds) but not written.
  int to = pid;
  auto freed_use = [&](const ComemPtr& p, const Use& u) {
    Region* freed = nullptr;
    Region* r = region(p, u, &freed);
    if (freed && !op.free_reported) {
      report_free_use(*freed, p, u);
      op.free_reported = true;
    }
    return r ? r : freed;
  };
  if (op.kind == OpKind::send) {
    to = op.dest_pid;
  } else if (op.kind == OpKind::store) {
    const Use u{"bspk_copy (store)", op.site, pid, "bspk_copy", op.superstep};
    Region* r = freed_use(op.dst, u);
    if (!r) return -1;  // no region at all (reported): no process to count it for
    to = op.dst.owner;
    op.dud = op.dud || !in_bounds(*r, op.dst.elem, op.n, u);
  } else if (op.kind == OpKind::fetch) {
    const Use u{"bspk_copy (fetch)", op.site, pid, "bspk_copy", op.superstep};
    Region* r = freed_use(op.src, u);
    if (!r) return -1;
    to = op.src.owner;
    op.dud = op.dud || !in_bounds(*r, op.src.elem, op.n, u);
    freed_use(op.dst, u);  // the local destination (its bounds were checked at the bspk_copy)
  }
  if (op.kind == OpKind::local_copy) {  // no message: done at the issuer's landing
    me().local_copies.push_back(std::move(op));
    return -1;
  }
  if ((op.kind == OpKind::send || op.kind == OpKind::store) && !op.dud) {  // the source is read at the sync
    Region* r = freed_use(op.src, use);
    if (!r) return to;
    const auto* from = r->data.data() + op.src.elem * r->size;
    op.data.assign(from, from + op.n * r->size);
  }
  if (op.kind == OpKind::fetch) ++me().fetches_out;
  // The receiver has taken its messages of the superstep already (it may still wait for its own
  // fetches): this one is counted by no sync.
  const auto& left = procs_[static_cast<std::size_t>(to)].left;
  if (to != pid && static_cast<std::size_t>(op.superstep) < left.size() && left[static_cast<std::size_t>(op.superstep)].taken) {
    const Left l = left[static_cast<std::size_t>(op.superstep)];
    report_count("process " + std::to_string(pid) + "'s " + call_of(op.kind) + " of superstep " +
                     std::to_string(op.superstep) + " (" + where(op.site) + ") reaches process " + std::to_string(to) +
                     " after it left that superstep's lazy sync (" + where(l.site) + ") having announced " +
                     std::to_string(l.announced) + " messages and taken " + std::to_string(l.received) +
                     ": it receives at least " + std::to_string(l.received + 1),
                 {to, pid}, op.superstep, {{l.site, to, "bspk_sync"}, {op.site, pid, call_of(op.kind)}});
  }
  procs_[static_cast<std::size_t>(to)].inbox.push_back(std::move(op));
  sync_.notify(to);
  return to;
}

void BspkRuntime::sync() {
  const int pid = world_.pid();
  const long s = sync_.superstep(pid);
  PerProcess& pp = me();
  const Site site = world_.self().site;

  pp.entered_sync = s;
  report_names();  // lookups of s nobody allocated, now that the last process has come
  sync_.notify_all();
  // One kind of announcement per superstep (Table 1).
  auto [kind_it, first] = announce_of_.try_emplace(s, pp.announce);
  if (!first && kind_it->second != pp.announce)
    sync_.report(Rule::bspk_announce_mixed,
                 "process " + std::to_string(pid) + " ends superstep " + std::to_string(s) + " with " +
                     (pp.announce == Announce::none ? "no announcement" : pp.announce == Announce::expect ? "bspk_expect" : "bspk_will_send") +
                     " while another process used " +
                     (kind_it->second == Announce::none ? "none" : kind_it->second == Announce::expect ? "bspk_expect" : "bspk_will_send"));

  // Post this superstep's sends and copies (a lookup among them is decided first, so a message
  // is counted for the process it reaches); with bspk_will_send, compare with what was announced.
  std::vector<Op> issued = std::move(pp.issued);
  pp.issued.clear();
  std::vector<int> sent(static_cast<std::size_t>(world_.nprocs()), 0);
  std::vector<std::vector<std::tuple<Site, int, const char*>>> sites_to(static_cast<std::size_t>(world_.nprocs()));
  for (Op& op : issued) {
    const Site at = op.site;
    const char* call = call_of(op.kind);
    const int to = post(std::move(op));
    if (to < 0) continue;
    ++sent[static_cast<std::size_t>(to)];
    sites_to[static_cast<std::size_t>(to)].push_back({at, pid, call});
  }
  PerProcess& self = pp;
  if (self.announce == Announce::will_send)
    for (int q = 0; q < world_.nprocs(); ++q) {
      const auto qu = static_cast<std::size_t>(q);
      if (q == pid || sent[qu] == self.will[qu]) continue;
      std::vector<std::tuple<Site, int, const char*>> at{{self.will_site, pid, "bspk_will_send"}};
      at.insert(at.end(), sites_to[qu].begin(), sites_to[qu].end());
      report_count("process " + std::to_string(pid) + " announced " + std::to_string(self.will[qu]) +
                       " messages to process " + std::to_string(q) + " with bspk_will_send but sends " +
                       std::to_string(sent[qu]) + " in superstep " + std::to_string(s),
                   {pid, q}, s, at);
    }
  ++entered_[s];
  sync_.notify_all();

  // Phase 0: what this process must receive is known: at once with bspk_expect; with
  // bspk_will_send once every process has announced; without announcement (a barrier) once
  // every process has entered its sync of s. Stuck here, the processes disagree on their
  // supersteps (one never reaches this sync, or reached bsp_end): superstep-mismatch, the rule
  // of a barrier that not every process reaches, and less specific than a count stuck below.
  sync_.wait_until({[this, pid, s] { return expected_now(pid, s) >= 0; },
                    [this, pid] {
                      std::vector<int> missing;
                      const bool will = procs_[static_cast<std::size_t>(pid)].announce == Announce::will_send;
                      const long here = sync_.superstep(pid);
                      for (int q = 0; q < world_.nprocs(); ++q) {
                        const PerProcess& o = procs_[static_cast<std::size_t>(q)];
                        const bool in = will ? sync_.superstep(q) > here ||
                                                   (sync_.superstep(q) == here && o.announce == Announce::will_send)
                                             : sync_.superstep(q) > here || o.entered_sync >= here;
                        if (!in) missing.push_back(q);
                      }
                      if (missing.empty())  // they passed announcing another way (bspk-announce-mixed)
                        return std::string("waits in bspk_sync for every process to call bspk_will_send in superstep ") +
                               std::to_string(here) + ", which some ended with another announcement";
                      return std::string("waits in bspk_sync (") + (will ? "bspk_will_send" : "a barrier: no announcement") +
                             ") for process" + (missing.size() > 1 ? "es " : " ") + pids(missing) + " to " +
                             (will ? "call bspk_will_send in its superstep " : "enter its bspk_sync of superstep ") +
                             std::to_string(here);
                    },
                    Rule::superstep_mismatch, 1});
  // Phase 1: the announced (or, without announcement, all) messages of s are in.
  sync_.wait_until({[this, pid, s] {
                      const long e = expected_now(pid, s);
                      return e >= 0 && tagged(pid, s) >= e;
                    },
                    [this, pid, s] {
                      const long e = expected_now(pid, s);
                      std::vector<int> from;
                      for (const Op& op : procs_[static_cast<std::size_t>(pid)].inbox)
                        if (op.superstep == s) from.push_back(op.issuer);
                      if (e < 0)
                        return std::string("waits in bspk_sync for every process to ") +
                               (procs_[static_cast<std::size_t>(pid)].announce == Announce::will_send ? "call bspk_will_send" : "enter its sync");
                      return "waits in bspk_sync for " + std::to_string(e) + " announced messages; " +
                             std::to_string(tagged(pid, s)) + " arrived (from " + pids(from) + ")";
                    },
                    Rule::bspk_count_mismatch, 2});

  // Land everything that has arrived (more than announced is reported: on a real machine the
  // extra ones would land while the receiver computes), with this process's local copies, in a
  // seeded order: it is bspk_recv's order and picks the winner where stores and local copies
  // write the same elements (the paper orders only fetches after stores). Then the fetches
  // others asked of this process are served from the stored-to memory.
  const long expected = expected_now(pid, s);
  std::vector<Op> mine, later;
  for (Op& op : self.inbox) (op.superstep <= s ? mine : later).push_back(std::move(op));
  self.inbox = std::move(later);
  {
    std::vector<int> from;
    std::vector<std::tuple<Site, int, const char*>> sites{{site, pid, "bspk_sync"}};
    for (const Op& op : mine)
      if (op.superstep == s) {
        from.push_back(op.issuer);
        sites.push_back({op.site, op.issuer, call_of(op.kind)});
      }
    if (static_cast<long>(from.size()) > expected)
      report_count("process " + std::to_string(pid) + " announced " + std::to_string(expected) + " messages for superstep " +
                       std::to_string(s) + " but receives " + std::to_string(from.size()) + " (from " + pids(from) + ")",
                   {pid}, s, sites);
    if (self.left.size() <= static_cast<std::size_t>(s)) self.left.resize(static_cast<std::size_t>(s) + 1);
    self.left[static_cast<std::size_t>(s)] = Left{true, site, expected, static_cast<long>(from.size())};
  }
  for (Op& op : self.local_copies) mine.push_back(std::move(op));
  self.local_copies.clear();
  // A local copy reads its source when it lands, in the seeded landing order: the paper orders
  // fetches after stores, but not a copy with both sides local against the stores and other local
  // copies of the sync. One that reads what they write reads old or new data by the seed: warned
  // (once per copy, naming the writer of lowest element it meets), not redefined. The writers'
  // ranges are sorted by (owner, region, first element), with the running maximum of their ends
  // in each region, so that each copy finds one by binary search: a sync of n local copies (at
  // p = 1 every copy is local) costs n log n, not n^2.
  struct WriterRange {
    int owner, region;
    long lo, hi, max_hi;  // max_hi: the largest hi from its region's first range to this one
    const Op* op;
  };
  std::vector<WriterRange> writers;
  bool any_reader = false;
  for (const Op& op : mine) {
    any_reader = any_reader || (op.kind == OpKind::local_copy && !op.dud);
    if (!op.dud && op.n > 0 && (op.kind == OpKind::store || op.kind == OpKind::local_copy))
      writers.push_back({op.dst.owner, op.dst.region, op.dst.elem, op.dst.elem + op.n, 0, &op});
  }
  if (!any_reader) writers.clear();
  const auto key = [](const WriterRange& w) { return std::tuple(w.owner, w.region, w.lo); };
  std::sort(writers.begin(), writers.end(), [&](const WriterRange& a, const WriterRange& b) { return key(a) < key(b); });
  for (std::size_t i = 0; i < writers.size(); ++i) {
    const bool same_region = i > 0 && writers[i - 1].owner == writers[i].owner && writers[i - 1].region == writers[i].region;
    writers[i].max_hi = same_region ? std::max(writers[i - 1].max_hi, writers[i].hi) : writers[i].hi;
  }
  // The writer of lowest first element whose range meets [lo, hi) of (owner, region), other than
  // `self`; null when none does.
  const auto writer_of = [&](int owner, int region, long lo, long hi, const Op* self) -> const Op* {
    const auto first = std::lower_bound(writers.begin(), writers.end(), std::tuple(owner, region, LONG_MIN),
                                        [&](const WriterRange& w, const auto& k) { return key(w) < k; });
    const auto past = std::lower_bound(first, writers.end(), std::tuple(owner, region, hi),
                                       [&](const WriterRange& w, const auto& k) { return key(w) < k; });
    // The ranges in [first, past) start before hi; the first whose running maximum passes lo is
    // the first that ends past lo (the maximum rises there).
    auto at = std::partition_point(first, past, [&](const WriterRange& w) { return w.max_hi <= lo; });
    for (; at != past; ++at)
      if (at->hi > lo && at->op != self) return at->op;
    return nullptr;
  };
  for (const Op& reader : mine) {
    if (reader.kind != OpKind::local_copy || reader.dud || reader.n <= 0) continue;
    if (const Op* found = writer_of(reader.src.owner, reader.src.region, reader.src.elem, reader.src.elem + reader.n,
                                    &reader)) {
      const Op& writer = *found;
      const char* how = writer.kind == OpKind::store ? "a store" : "a local copy";
      std::vector<int> who{pid};
      if (writer.issuer != pid) who.push_back(writer.issuer);
      report_at(Rule::bspk_copy_order,
                "process " + std::to_string(pid) + "'s local bspk_copy of superstep " + std::to_string(s) + " (" +
                    where(reader.site) + ") reads elements that " + how + " of process " +
                    std::to_string(writer.issuer) + " (" + where(writer.site) +
                    ") writes at the same sync: the paper orders fetches after stores but not this copy, so "
                    "whether it reads the old or the new elements is the seed's choice here",
                Use{"bspk_copy", reader.site, pid, "bspk_copy", s}, who, {{writer.site, writer.issuer, "bspk_copy"}});
    }
  }
  // Exploring offers only orders that can matter: of two or more sends (bspk_recv's order), or
  // of stores and local copies where one writes what another writes or reads.
  bool order_matters = !world_.scheduler().exploring();
  {
    long sends = 0;
    std::vector<std::pair<ComemPtr, long>> writes, reads;
    for (const Op& op : mine)
      if (op.kind == OpKind::send) {
        ++sends;
      } else if (op.kind == OpKind::store || op.kind == OpKind::local_copy) {
        writes.push_back({op.dst, op.n});
        if (op.kind == OpKind::local_copy) reads.push_back({op.src, op.n});
      }
    order_matters = order_matters || sends > 1 || overlapping(writes) || overlapping(writes, reads);
  }
  if (order_matters) world_.scheduler().shuffle(mine, ChoiceKind::queue_order);
  std::vector<Op> fetch_requests;
  std::vector<ComemPtr> received;
  std::vector<Written> landed;  // stores and local copies written here, for the fetch landing below
  for (Op& op : mine) {
    const Use u{op.kind == OpKind::store ? "bspk_copy (store)" : call_of(op.kind), op.site, op.issuer, call_of(op.kind),
                op.superstep};
    if (op.dud && op.kind != OpKind::fetch) {
      continue;  // reported when it was posted (a fetch is still answered, with nothing)
    } else if (op.kind == OpKind::store || op.kind == OpKind::local_copy) {
      Region* freed = nullptr;  // a region freed before the sync was reported at its bspk_free
      Region** quiet = op.free_reported ? &freed : nullptr;
      if (op.kind == OpKind::local_copy) {  // its source is read now, in this order
        Region* from = region(op.src, u, quiet);
        if (!from) from = freed;  // a real machine copies what the freed memory holds
        freed = nullptr;
        if (!from) continue;
        const auto* bytes = from->data.data() + op.src.elem * from->size;
        op.data.assign(bytes, bytes + op.n * from->size);
      }
      Region* r = region(op.dst, u, quiet);
      if (!r) continue;
      const std::size_t n = std::min<std::size_t>(op.data.size(), static_cast<std::size_t>(op.n * r->size));
      std::memcpy(r->data.data() + op.dst.elem * r->size, op.data.data(), n);
      landed.push_back({op.dst, op.n, std::move(op.data)});
    } else if (op.kind == OpKind::send) {
      const Region& from = procs_[static_cast<std::size_t>(op.issuer)].regions[static_cast<std::size_t>(op.src.region)];
      Region r;
      r.n = op.n;
      r.size = from.size;
      r.data = std::move(op.data);
      r.sender = op.issuer;
      r.site = op.site;
      self.regions.push_back(std::move(r));
      received.push_back(ComemPtr{pid, static_cast<int>(self.regions.size() - 1), 0});
    } else {
      fetch_requests.push_back(std::move(op));
    }
  }
  for (Op& op : fetch_requests) {
    const Use u{"bspk_copy (fetch)", op.site, op.issuer, "bspk_copy", op.superstep};
    PerProcess& fetcher = procs_[static_cast<std::size_t>(op.issuer)];
    --fetcher.fetches_out;
    sync_.notify(op.issuer);
    if (op.dud) continue;
    Region* freed = nullptr;  // a real machine serves what the memory holds
    Region* from = region(op.src, u, op.free_reported ? &freed : nullptr);
    if (!from) from = freed;
    if (!from) continue;
    const auto* bytes = from->data.data() + op.src.elem * from->size;
    fetcher.fetched.push_back({op.dst, op.n, std::vector<unsigned char>(bytes, bytes + op.n * from->size)});
  }

  // Phase 2: this process's own fetches have been served; their data lands now. Where a fetch's
  // destination is also written by a store or local copy of this sync, the paper does not say
  // which lands last: they are written again together, in a seeded order.
  sync_.wait_until({[this, pid] { return procs_[static_cast<std::size_t>(pid)].fetches_out == 0; },
                    [this, pid] {
                      return "waits in bspk_sync for " + std::to_string(procs_[static_cast<std::size_t>(pid)].fetches_out) +
                             " fetches to be served";
                    },
                    Rule::bspk_count_mismatch, 1});
  PerProcess& again = pp;
  std::vector<Written> writes = std::move(again.fetched);
  again.fetched.clear();
  if (!writes.empty()) {
    std::vector<std::pair<ComemPtr, long>> fetched_dsts;
    for (const Written& w : writes) fetched_dsts.push_back({w.dst, w.n});
    for (Written& w : landed)
      if (overlapping(fetched_dsts, {{w.dst, w.n}})) writes.push_back(std::move(w));
  }
  std::vector<std::pair<ComemPtr, long>> dsts;
  for (const Written& w : writes) dsts.push_back({w.dst, w.n});
  if (!world_.scheduler().exploring() || overlapping(dsts)) world_.scheduler().shuffle(writes, ChoiceKind::write_order);
  for (Written& w : writes) {
    Region& r = again.regions[static_cast<std::size_t>(w.dst.region)];
    if (r.freed) continue;  // reported where it was freed or when the fetch was posted
    std::memcpy(r.data.data() + w.dst.elem * r.size, w.data.data(), std::min<std::size_t>(w.data.size(), static_cast<std::size_t>(w.n * r.size)));
  }
  // Messages of this superstep are received in the next; unreceived ones vanish.
  again.received = std::move(received);
  again.next_recv = 0;
  again.announce = Announce::none;
  sync_.set_superstep(pid, s + 1);
}

void BspkRuntime::before_end(int pid) {
  // Sends and copies are posted at the issuer's next bspk_sync (the paper: communication appears
  // to take place at superstep boundaries); issued after the last one, they never happen.
  PerProcess& pp = procs_[static_cast<std::size_t>(pid)];
  const Process& self = world_.processes()[static_cast<std::size_t>(pid)];
  for (const Op& op : pp.issued) {
    const char* call = call_of(op.kind);
    const char* what = op.kind == OpKind::send ? "bspk_send" : op.kind == OpKind::local_copy ? "local bspk_copy"
                       : op.kind == OpKind::store                                           ? "bspk_copy (store)"
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
