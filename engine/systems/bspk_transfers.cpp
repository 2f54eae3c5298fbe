// bspk_transfers.cpp: BSPk's sends and copies (bspk_send, bspk_copy, bspk_recv) and the
// announcements of what a sync receives (bspk_expect, bspk_will_send): issued at the call, posted
// to their receivers at the issuer's sync (BspkRuntime::post). bspk_runtime.hpp.
#include <algorithm>
#include <climits>
#include <cstring>
#include <tuple>

#include "engine/core/world.hpp"
#include "engine/systems/bspk_runtime.hpp"
#include "engine/systems/bspk_text.hpp"

namespace bspcheck::rt {

using namespace bspk_text;

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
    sync_.report(Rule::bspk_copy_nonlocal,
                 "bspk_copy between two comem pointers neither of which is local to process " + std::to_string(pid) +
                     ": at least one side must be local");
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
  sync_.report(Rule::api_misuse,
               std::string(call) + " after bspk_will_send (" + where(pp.will_site) + ") in the same superstep " +
                   std::to_string(s) +
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
    sync_.report(Rule::api_misuse,
                 "bspk_will_send with negative numbers of messages (" + negative + "): each must be >= 0; taken as 0");
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
    case Announce::expect:
      return pp.expected;
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
  if (to != pid && static_cast<std::size_t>(op.superstep) < left.size() &&
      left[static_cast<std::size_t>(op.superstep)].taken) {
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

}  // namespace bspcheck::rt
