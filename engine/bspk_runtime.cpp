// bspk_runtime.cpp: see bspk_runtime.hpp.
#include "engine/bspk_runtime.hpp"

#include <algorithm>
#include <cstring>

#include "engine/world.hpp"

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
}  // namespace

BspkRuntime::BspkRuntime(World& world)
    : world_(world), sync_(world.local_sync()), procs_(static_cast<std::size_t>(world.nprocs())) {}

BspkRuntime::PerProcess& BspkRuntime::me() { return procs_[static_cast<std::size_t>(world_.pid())]; }

BspkRuntime::Region* BspkRuntime::region(ComemPtr& p, const char* what) {
  if (p.owner == -2) {  // a lookup: resolved at its first use
    const Lookup& l = lookups_[static_cast<std::size_t>(p.region)];
    auto it = names_.find({l.name, l.idx});
    if (it == names_.end()) {
      Finding f;
      f.rule = rule_id(Rule::bspk_lookup_unknown);
      f.message = std::string(what) + " uses bspk_lookup(\"" + l.name + "\", " + std::to_string(l.idx) + ") (" +
                  where(l.site) + "), a name no process has allocated";
      f.processes = {world_.pid()};
      f.superstep = static_cast<int>(sync_.superstep(world_.pid()));
      f.locations = {world_.diagnostics().location(l.site, world_.pid(), "bspk_lookup"),
                     world_.diagnostics().location(world_.self().site, world_.pid(), world_.self().call)};
      world_.diagnostics().report(std::move(f));
      return nullptr;
    }
    p = ComemPtr{it->second.owner, it->second.region, p.elem};
  }
  if (p.owner < 0 || p.owner >= world_.nprocs() || p.region < 0 ||
      static_cast<std::size_t>(p.region) >= procs_[static_cast<std::size_t>(p.owner)].regions.size()) {
    world_.report(Rule::api_misuse, std::string(what) + " of a null or invalid comem pointer");
    return nullptr;
  }
  Region& r = procs_[static_cast<std::size_t>(p.owner)].regions[static_cast<std::size_t>(p.region)];
  if (r.freed) {
    world_.report(Rule::bspk_use_after_free, std::string(what) + " uses a comem region of process " +
                                                 std::to_string(p.owner) + " (allocated at " + where(r.site) +
                                                 ") after its bspk_free");
    return nullptr;
  }
  return &r;
}

bool BspkRuntime::in_bounds(const Region& r, long elem, long n, const char* what) {
  if (elem >= 0 && n >= 0 && elem + n <= r.n) return true;
  world_.report(Rule::bspk_out_of_bounds, std::string(what) + " of elements " + std::to_string(elem) + ".." +
                                              std::to_string(elem + n) + " of a region of " + std::to_string(r.n) +
                                              " elements (allocated at " + where(r.site) + ")");
  return false;
}

ComemPtr BspkRuntime::malloc(const char* name, int idx, long n, long size) {
  const int pid = world_.pid();
  if (n < 0 || size <= 0) {
    world_.report(Rule::api_misuse, "bspk_malloc of " + std::to_string(n) + " elements of " + std::to_string(size) +
                                        " bytes: both must be positive (n may be 0)");
    return {};
  }
  PerProcess& pp = me();
  Region r;
  r.name = name ? name : "";
  r.idx = idx;
  r.n = n;
  r.size = size;
  r.data.assign(static_cast<std::size_t>(n * size), 0);
  r.site = world_.self().site;
  pp.regions.push_back(std::move(r));
  ComemPtr p{pid, static_cast<int>(pp.regions.size() - 1), 0};
  if (name && *name) {
    auto [it, fresh] = names_.try_emplace({std::string(name), idx}, p);
    if (!fresh) {
      const Region& first = procs_[static_cast<std::size_t>(it->second.owner)].regions[static_cast<std::size_t>(it->second.region)];
      world_.report(Rule::bspk_double_alloc, "bspk_malloc(\"" + std::string(name) + "\", " + std::to_string(idx) +
                                                 "): the name and index are already allocated by process " +
                                                 std::to_string(it->second.owner) + " (" + where(first.site) + ")");
    }
    sync_.notify_all();  // a process may wait for this name (a lookup used in its sync)
  }
  return p;
}

ComemPtr BspkRuntime::lookup(const char* name, int idx) {
  auto it = names_.find({name ? name : "", idx});
  if (it != names_.end()) return it->second;
  // Not allocated yet: the region may be allocated later in this superstep (the paper's Figure 6);
  // the pointer is resolved at its first use.
  lookups_.push_back({name ? name : "", idx, world_.self().site});
  return ComemPtr{-2, static_cast<int>(lookups_.size() - 1), 0};
}

void BspkRuntime::free(ComemPtr p) {
  if (p.owner != world_.pid()) {
    world_.report(Rule::api_misuse, "bspk_free of a comem pointer that is not local");
    return;
  }
  if (Region* r = region(p, "bspk_free")) r->freed = true;
}

void* BspkRuntime::elem_ptr(ComemPtr p) {
  if (p.owner == -2) region(p, "bspk_elemP");  // a lookup: resolve it to see whose region it is
  if (p.owner >= 0 && p.owner != world_.pid()) {
    world_.report(Rule::bspk_remote_elemp, "bspk_elemP of a comem pointer into process " + std::to_string(p.owner) +
                                               "'s memory: only local comem can be dereferenced; use bspk_copy");
    return nullptr;
  }
  Region* r = region(p, "bspk_elemP");
  if (!r || !in_bounds(*r, p.elem, 1, "bspk_elemP")) return nullptr;
  return r->data.data() + p.elem * r->size;
}

ComemPtr BspkRuntime::incr(ComemPtr p, long amount) {
  ComemPtr q = p;
  q.elem += amount;
  if (p.owner == -2) return q;  // an unresolved lookup: checked at its use
  Region* r = region(p, "bspk_incr");
  if (r && (q.elem < 0 || q.elem > r->n))
    world_.report(Rule::bspk_out_of_bounds, "bspk_incr by " + std::to_string(amount) + " to element " +
                                                std::to_string(q.elem) + " of a region of " + std::to_string(r->n) +
                                                " elements (allocated at " + where(r->site) + ")");
  return q;
}

void BspkRuntime::send(int dest, ComemPtr p, long n) {
  const int pid = world_.pid();
  if (dest < 0 || dest >= world_.nprocs()) {
    world_.report(Rule::bad_pid, "bspk_send to process " + std::to_string(dest));
    return;
  }
  if (p.owner != pid) {
    world_.report(Rule::api_misuse, "bspk_send of a comem pointer that is not local");
    return;
  }
  Region* r = region(p, "bspk_send");
  if (!r || !in_bounds(*r, p.elem, n, "bspk_send")) return;
  me().issued.push_back(Op{OpKind::send, pid, sync_.superstep(pid), {}, p, n, dest, {}, world_.self().site});
}

void BspkRuntime::copy(ComemPtr dst, ComemPtr src, long n) {
  const int pid = world_.pid();
  const bool dst_local = dst.owner == pid, src_local = src.owner == pid;
  if (!dst_local && !src_local) {
    world_.report(Rule::bspk_copy_nonlocal, "bspk_copy between two comem pointers neither of which is local to process " +
                                                std::to_string(pid) + ": at least one side must be local");
    return;
  }
  // The local side is checked now; the remote one (perhaps an unresolved lookup) when posted.
  ComemPtr local = dst_local ? dst : src;
  Region* r = region(local, "bspk_copy");
  if (!r || !in_bounds(*r, local.elem, n, "bspk_copy")) return;
  const OpKind kind = dst_local && src_local ? OpKind::local_copy : src_local ? OpKind::store : OpKind::fetch;
  me().issued.push_back(Op{kind, pid, sync_.superstep(pid), dst, src, n, -1, {}, world_.self().site});
}

int BspkRuntime::owner_of(ComemPtr p) const {
  if (p.owner != -2) return p.owner >= 0 ? p.owner : -1;
  const Lookup& l = lookups_[static_cast<std::size_t>(p.region)];
  auto it = names_.find({l.name, l.idx});
  return it == names_.end() ? -1 : it->second.owner;
}

long BspkRuntime::elements(ComemPtr p) const {
  if (p.owner < 0 || p.owner >= world_.nprocs() || p.region < 0) return 0;
  const auto& regions = procs_[static_cast<std::size_t>(p.owner)].regions;
  return static_cast<std::size_t>(p.region) < regions.size() ? regions[static_cast<std::size_t>(p.region)].n : 0;
}

long BspkRuntime::element_bytes(ComemPtr p) const {
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
  Region* r = region(p, "bspk_sender_id");
  return r ? r->sender : -1;
}

void BspkRuntime::expect(int nmsgs) {
  PerProcess& pp = me();
  pp.announce = Announce::expect;
  pp.expected = nmsgs;
}

void BspkRuntime::will_send(const int* per_pid) {
  PerProcess& pp = me();
  const long s = sync_.superstep(world_.pid());
  pp.announce = Announce::will_send;
  pp.will.assign(per_pid, per_pid + world_.nprocs());
  auto& sum = will_sum_[s];
  sum.resize(static_cast<std::size_t>(world_.nprocs()), 0);
  for (int q = 0; q < world_.nprocs(); ++q) sum[static_cast<std::size_t>(q)] += per_pid[q];
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

void BspkRuntime::report_count(const std::string& msg, std::vector<int> who, long s, const std::vector<Site>& sites) {
  Finding f;
  f.rule = rule_id(Rule::bspk_count_mismatch);
  f.message = msg;
  f.processes = std::move(who);
  f.superstep = static_cast<int>(s);
  for (const Site& site : sites) f.locations.push_back(world_.diagnostics().location(site, f.processes.front(), "bspk_sync"));
  world_.diagnostics().report(std::move(f));
}

void BspkRuntime::post(Op op) {
  const int pid = world_.pid();
  // A lookup not resolved yet names a region that may be allocated later in this superstep (the
  // paper guarantees it by the end of it): wait until it is, or until every process has reached
  // its sync of the superstep (then the lookup is unknown).
  for (ComemPtr* side : {&op.dst, &op.src}) {
    if (side->owner != -2) continue;
    const Lookup l = lookups_[static_cast<std::size_t>(side->region)];  // (lookups_ may grow while waiting)
    const long s = op.superstep;
    sync_.wait_until({[this, l, s] { return names_.count({l.name, l.idx}) > 0 || at_sync_[s] >= world_.nprocs(); },
                      [l] { return "waits in bspk_sync for a process to allocate \"" + l.name + "\" (bspk_lookup)"; },
                      Rule::bspk_lookup_unknown, 0});
  }
  int to = pid;
  if (op.kind == OpKind::send) {
    to = op.dest_pid;
  } else if (op.kind == OpKind::store) {
    Region* r = region(op.dst, "bspk_copy (store)");
    if (!r || !in_bounds(*r, op.dst.elem, op.n, "bspk_copy (store)")) return;
    to = op.dst.owner;
  } else if (op.kind == OpKind::local_copy) {  // no message: done at the issuer's landing
    me().local_copies.push_back(std::move(op));
    return;
  } else if (op.kind == OpKind::fetch) {
    Region* r = region(op.src, "bspk_copy (fetch)");
    if (!r || !in_bounds(*r, op.src.elem, op.n, "bspk_copy (fetch)")) return;
    to = op.src.owner;
    ++me().fetches_out;
  }
  if (op.kind == OpKind::send || op.kind == OpKind::store) {  // the source is read at the sync
    Region* r = region(op.src, op.kind == OpKind::send ? "bspk_send" : "bspk_copy");
    if (!r) return;
    const auto* from = r->data.data() + op.src.elem * r->size;
    op.data.assign(from, from + op.n * r->size);
  }
  if (to != pid && sync_.superstep(to) > op.superstep)
    report_count("process " + std::to_string(pid) + "'s message of superstep " + std::to_string(op.superstep) + " (" +
                     where(op.site) + ") reaches process " + std::to_string(to) +
                     " after it left that superstep's lazy sync: its announced count was smaller than what it receives",
                 {to, pid}, op.superstep, {op.site});
  procs_[static_cast<std::size_t>(to)].inbox.push_back(std::move(op));
  sync_.notify(to);
}

void BspkRuntime::sync() {
  const int pid = world_.pid();
  const long s = sync_.superstep(pid);
  PerProcess& pp = me();
  const Site site = world_.self().site;

  ++at_sync_[s];
  sync_.notify_all();
  // One kind of announcement per superstep (Table 1).
  auto [kind_it, first] = announce_of_.try_emplace(s, pp.announce);
  if (!first && kind_it->second != pp.announce)
    world_.report(Rule::bspk_announce_mixed,
                  "process " + std::to_string(pid) + " ends superstep " + std::to_string(s) + " with " +
                      (pp.announce == Announce::none ? "no announcement" : pp.announce == Announce::expect ? "bspk_expect" : "bspk_will_send") +
                      " while another process used " +
                      (kind_it->second == Announce::none ? "none" : kind_it->second == Announce::expect ? "bspk_expect" : "bspk_will_send"));

  // Post this superstep's sends and copies; with bspk_will_send, compare with what was announced.
  std::vector<Op> issued = std::move(pp.issued);
  pp.issued.clear();
  if (pp.announce == Announce::will_send) {
    std::vector<int> sent(static_cast<std::size_t>(world_.nprocs()), 0);
    for (const Op& op : issued)
      if (op.kind == OpKind::send) ++sent[static_cast<std::size_t>(op.dest_pid)];
      else if (op.kind == OpKind::store) ++sent[static_cast<std::size_t>(op.dst.owner >= 0 ? op.dst.owner : pid)];
      else if (op.kind == OpKind::fetch && op.src.owner >= 0) ++sent[static_cast<std::size_t>(op.src.owner)];
    for (int q = 0; q < world_.nprocs(); ++q)
      if (q != pid && sent[static_cast<std::size_t>(q)] != pp.will[static_cast<std::size_t>(q)])
        report_count("process " + std::to_string(pid) + " announced " + std::to_string(pp.will[static_cast<std::size_t>(q)]) +
                         " messages to process " + std::to_string(q) + " with bspk_will_send but sends " +
                         std::to_string(sent[static_cast<std::size_t>(q)]) + " in superstep " + std::to_string(s),
                     {pid, q}, s, {site});
  }
  for (Op& op : issued) post(std::move(op));
  ++entered_[s];
  sync_.notify_all();

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

  // Land everything that has arrived, in a seeded order (more than announced is reported: on a
  // real machine the extra ones would land while the receiver computes), stores and sends first;
  // then the fetches are served from the stored-to memory.
  const long expected = expected_now(pid, s);
  std::vector<Op> mine, later;
  for (Op& op : pp.inbox) (op.superstep <= s ? mine : later).push_back(std::move(op));
  // Exploring offers only orders that can matter: of two or more sends (bspk_recv's order), or of
  // stores whose destinations overlap (the collision's winner).
  bool order_matters = !world_.scheduler().exploring();
  {
    long sends = 0;
    std::vector<std::pair<ComemPtr, long>> stores;
    for (const Op& op : mine)
      if (op.kind == OpKind::send) ++sends;
      else if (op.kind == OpKind::store) stores.push_back({op.dst, op.n});
    order_matters = order_matters || sends > 1 || overlapping(stores);
  }
  if (order_matters) world_.scheduler().shuffle(mine, ChoiceKind::queue_order);
  if (static_cast<long>(mine.size()) > expected) {
    std::vector<int> from;
    std::vector<Site> sites{site};
    for (const Op& op : mine) {
      from.push_back(op.issuer);
      sites.push_back(op.site);
    }
    report_count("process " + std::to_string(pid) + " announced " + std::to_string(expected) + " messages for superstep " +
                     std::to_string(s) + " but receives " + std::to_string(mine.size()) + " (from " + pids(from) + ")",
                 {pid}, s, sites);
  }
  pp.inbox = std::move(later);
  std::vector<Op> fetch_requests;
  std::vector<ComemPtr> received;
  for (Op& op : mine) {
    if (op.kind == OpKind::store) {
      Region* r = region(op.dst, "bspk_copy (store)");
      if (r) std::memcpy(r->data.data() + op.dst.elem * r->size, op.data.data(), op.data.size());
    } else if (op.kind == OpKind::send) {
      const Region& from = procs_[static_cast<std::size_t>(op.issuer)].regions[static_cast<std::size_t>(op.src.region)];
      Region r;
      r.n = op.n;
      r.size = from.size;
      r.data = std::move(op.data);
      r.sender = op.issuer;
      r.site = op.site;
      pp.regions.push_back(std::move(r));
      received.push_back(ComemPtr{pid, static_cast<int>(pp.regions.size() - 1), 0});
    } else {
      fetch_requests.push_back(std::move(op));
    }
  }
  // Local copies, then the fetches others asked of this process: read now, after the stores.
  for (Op& op : pp.local_copies) fetch_requests.push_back(std::move(op));
  pp.local_copies.clear();
  for (Op& op : fetch_requests) {
    Region* from = region(op.src, "bspk_copy");
    if (!from) continue;
    const auto* bytes = from->data.data() + op.src.elem * from->size;
    std::vector<unsigned char> data(bytes, bytes + op.n * from->size);
    if (op.kind == OpKind::local_copy) {
      Region* to = region(op.dst, "bspk_copy");
      if (to && in_bounds(*to, op.dst.elem, op.n, "bspk_copy"))
        std::memcpy(to->data.data() + op.dst.elem * to->size, data.data(), std::min<std::size_t>(data.size(), static_cast<std::size_t>(op.n * to->size)));
      continue;
    }
    PerProcess& fetcher = procs_[static_cast<std::size_t>(op.issuer)];
    fetcher.fetched.push_back({op.dst, op.n, std::move(data)});
    --fetcher.fetches_out;
    sync_.notify(op.issuer);
  }

  // Phase 2: this process's own fetches have been served; their data lands now.
  sync_.wait_until({[this, pid] { return procs_[static_cast<std::size_t>(pid)].fetches_out == 0; },
                    [this, pid] {
                      return "waits in bspk_sync for " + std::to_string(procs_[static_cast<std::size_t>(pid)].fetches_out) +
                             " fetches to be served";
                    },
                    Rule::bspk_count_mismatch, 1});
  std::vector<Fetched> fetched = std::move(pp.fetched);
  pp.fetched.clear();
  std::vector<std::pair<ComemPtr, long>> dsts;
  for (const Fetched& f : fetched) dsts.push_back({f.dst, f.n});
  if (!world_.scheduler().exploring() || overlapping(dsts)) world_.scheduler().shuffle(fetched, ChoiceKind::write_order);
  for (Fetched& f : fetched) {
    Region* r = region(f.dst, "bspk_copy (fetch)");
    if (r) std::memcpy(r->data.data() + f.dst.elem * r->size, f.data.data(), f.data.size());
  }
  // Messages of this superstep are received in the next; unreceived ones vanish.
  pp.received = std::move(received);
  pp.next_recv = 0;
  pp.announce = Announce::none;
  sync_.set_superstep(pid, s + 1);
}

}  // namespace bspcheck::rt
