// bspk_sync.cpp: bspk_sync, a barrier or a lazy sync (bspk_runtime.hpp), as its phases in their
// order: post this superstep's sends and copies; wait until what this process must receive is
// known, then in; take what arrived and land it, with the local copies, in a seeded order; serve
// the fetches others asked of this process; wait for its own fetches and land them.
#include <algorithm>
#include <climits>
#include <cstring>
#include <tuple>

#include "engine/core/world.hpp"
#include "engine/systems/bspk_runtime.hpp"
#include "engine/systems/bspk_text.hpp"

namespace bspcheck::rt {

using namespace bspk_text;

void BspkRuntime::sync() {
  const int pid = world_.pid();
  const long s = sync_.superstep(pid);
  const Site site = world_.self().site;
  announce_and_post(pid, s);
  await_expected(pid, s);
  std::vector<Op> mine = take_arrived(pid, s, site);
  warn_copy_order(pid, s, mine);
  Landing landing = land_in_seeded_order(pid, mine);
  serve_fetches(landing.fetch_requests);
  land_fetches(pid, std::move(landing.landed));
  // Messages of this superstep are received in the next; unreceived ones vanish.
  PerProcess& pp = procs_[static_cast<std::size_t>(pid)];
  pp.received = std::move(landing.received);
  pp.next_recv = 0;
  pp.announce = Announce::none;
  sync_.set_superstep(pid, s + 1);
}

// The announcement checked against the superstep's other processes (one kind per superstep,
// Table 1); this superstep's sends and copies posted to their receivers.
void BspkRuntime::announce_and_post(int pid, long s) {
  PerProcess& pp = procs_[static_cast<std::size_t>(pid)];
  pp.entered_sync = s;
  report_names();  // lookups of s nobody allocated, now that the last process has come
  sync_.notify_all();
  // One kind of announcement per superstep (Table 1).
  auto [kind_it, first] = announce_of_.try_emplace(s, pp.announce);
  if (!first && kind_it->second != pp.announce)
    sync_.report(Rule::bspk_announce_mixed, "process " + std::to_string(pid) + " ends superstep " + std::to_string(s) +
                                                " with " +
                                                (pp.announce == Announce::none     ? "no announcement"
                                                 : pp.announce == Announce::expect ? "bspk_expect"
                                                                                   : "bspk_will_send") +
                                                " while another process used " +
                                                (kind_it->second == Announce::none     ? "none"
                                                 : kind_it->second == Announce::expect ? "bspk_expect"
                                                                                       : "bspk_will_send"));

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
  if (pp.announce == Announce::will_send)
    for (int q = 0; q < world_.nprocs(); ++q) {
      const auto qu = static_cast<std::size_t>(q);
      if (q == pid || sent[qu] == pp.will[qu]) continue;
      std::vector<std::tuple<Site, int, const char*>> at{{pp.will_site, pid, "bspk_will_send"}};
      at.insert(at.end(), sites_to[qu].begin(), sites_to[qu].end());
      report_count("process " + std::to_string(pid) + " announced " + std::to_string(pp.will[qu]) +
                       " messages to process " + std::to_string(q) + " with bspk_will_send but sends " +
                       std::to_string(sent[qu]) + " in superstep " + std::to_string(s),
                   {pid, q}, s, at);
    }
  ++entered_[s];
  sync_.notify_all();
}

// Waits until what this process must receive in superstep s is known, then until it is in.
void BspkRuntime::await_expected(int pid, long s) {
  // Phase 0: what this process must receive is known: at once with bspk_expect; with
  // bspk_will_send once every process has announced; without announcement (a barrier) once
  // every process has entered its sync of s. Stuck here, the processes disagree on their
  // supersteps (one never reaches this sync, or reached bsp_end): superstep-mismatch, the rule
  // of a barrier that not every process reaches, and less specific than a count stuck below.
  sync_.wait_until(
      {[this, pid, s] { return expected_now(pid, s) >= 0; },
       [this, pid] {
         std::vector<int> missing;
         const bool will = procs_[static_cast<std::size_t>(pid)].announce == Announce::will_send;
         const long here = sync_.superstep(pid);
         for (int q = 0; q < world_.nprocs(); ++q) {
           const PerProcess& o = procs_[static_cast<std::size_t>(q)];
           const bool in =
               will ? sync_.superstep(q) > here || (sync_.superstep(q) == here && o.announce == Announce::will_send)
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
                               (procs_[static_cast<std::size_t>(pid)].announce == Announce::will_send
                                    ? "call bspk_will_send"
                                    : "enter its sync");
                      return "waits in bspk_sync for " + std::to_string(e) + " announced messages; " +
                             std::to_string(tagged(pid, s)) + " arrived (from " + pids(from) + ")";
                    },
                    Rule::bspk_count_mismatch, 2});
}

// The operations that reached this process for superstep s and before, with its own local copies;
// more messages than announced are reported.
std::vector<BspkRuntime::Op> BspkRuntime::take_arrived(int pid, long s, const Site& site) {
  PerProcess& pp = procs_[static_cast<std::size_t>(pid)];
  // Land everything that has arrived (more than announced is reported: on a real machine the
  // extra ones would land while the receiver computes), with this process's local copies, in a
  // seeded order: it is bspk_recv's order and picks the winner where stores and local copies
  // write the same elements (the paper orders only fetches after stores). Then the fetches
  // others asked of this process are served from the stored-to memory.
  const long expected = expected_now(pid, s);
  std::vector<Op> mine, later;
  for (Op& op : pp.inbox) (op.superstep <= s ? mine : later).push_back(std::move(op));
  pp.inbox = std::move(later);
  {
    std::vector<int> from;
    std::vector<std::tuple<Site, int, const char*>> sites{{site, pid, "bspk_sync"}};
    for (const Op& op : mine)
      if (op.superstep == s) {
        from.push_back(op.issuer);
        sites.push_back({op.site, op.issuer, call_of(op.kind)});
      }
    if (static_cast<long>(from.size()) > expected)
      report_count("process " + std::to_string(pid) + " announced " + std::to_string(expected) +
                       " messages for superstep " + std::to_string(s) + " but receives " + std::to_string(from.size()) +
                       " (from " + pids(from) + ")",
                   {pid}, s, sites);
    if (pp.left.size() <= static_cast<std::size_t>(s)) pp.left.resize(static_cast<std::size_t>(s) + 1);
    pp.left[static_cast<std::size_t>(s)] = Left{true, site, expected, static_cast<long>(from.size())};
  }
  for (Op& op : pp.local_copies) mine.push_back(std::move(op));
  pp.local_copies.clear();
  return mine;
}

// Warns of a local copy that reads what a store or another local copy of the same sync writes.
void BspkRuntime::warn_copy_order(int pid, long s, const std::vector<Op>& mine) {
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
  std::sort(writers.begin(), writers.end(),
            [&](const WriterRange& a, const WriterRange& b) { return key(a) < key(b); });
  for (std::size_t i = 0; i < writers.size(); ++i) {
    const bool same_region =
        i > 0 && writers[i - 1].owner == writers[i].owner && writers[i - 1].region == writers[i].region;
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
    if (const Op* found =
            writer_of(reader.src.owner, reader.src.region, reader.src.elem, reader.src.elem + reader.n, &reader)) {
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
}

// Stores, sends and local copies land in a seeded order; fetch requests are set aside.
BspkRuntime::Landing BspkRuntime::land_in_seeded_order(int pid, std::vector<Op>& mine) {
  PerProcess& pp = procs_[static_cast<std::size_t>(pid)];
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
  Landing out;
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
      out.landed.push_back({op.dst, op.n, std::move(op.data)});
    } else if (op.kind == OpKind::send) {
      const Region& from = procs_[static_cast<std::size_t>(op.issuer)].regions[static_cast<std::size_t>(op.src.region)];
      Region r;
      r.n = op.n;
      r.size = from.size;
      r.data = std::move(op.data);
      r.sender = op.issuer;
      r.site = op.site;
      pp.regions.push_back(std::move(r));
      out.received.push_back(ComemPtr{pid, static_cast<int>(pp.regions.size() - 1), 0});
    } else {
      out.fetch_requests.push_back(std::move(op));
    }
  }
  return out;
}

// The fetches others asked of this process, served from its memory as the stores left it.
void BspkRuntime::serve_fetches(std::vector<Op>& fetch_requests) {
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
}

void BspkRuntime::land_fetches(int pid, std::vector<Written> landed) {
  PerProcess& pp = procs_[static_cast<std::size_t>(pid)];
  // Phase 2: this process's own fetches have been served; their data lands now. Where a fetch's
  // destination is also written by a store or local copy of this sync, the paper does not say
  // which lands last: they are written again together, in a seeded order.
  sync_.wait_until({[this, pid] { return procs_[static_cast<std::size_t>(pid)].fetches_out == 0; },
                    [this, pid] {
                      return "waits in bspk_sync for " +
                             std::to_string(procs_[static_cast<std::size_t>(pid)].fetches_out) +
                             " fetches to be served";
                    },
                    Rule::bspk_count_mismatch, 1});
  std::vector<Written> writes = std::move(pp.fetched);
  pp.fetched.clear();
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
    Region& r = pp.regions[static_cast<std::size_t>(w.dst.region)];
    if (r.freed) continue;  // reported where it was freed or when the fetch was posted
    std::memcpy(r.data.data() + w.dst.elem * r.size, w.data.data(),
                std::min<std::size_t>(w.data.size(), static_cast<std::size_t>(w.n * r.size)));
  }
}

}  // namespace bspcheck::rt
