#include "replay/rank_traces.hpp"

#include <algorithm>
#include <filesystem>

#include "replay/trace_format.hpp"
#include "runtime/base/rng.hpp"

namespace bspcheck::trace {

namespace {

// One rank's part of one superstep: its calls, and what the sync that ended it delivered.
struct Segment {
  std::vector<CallRecord> calls;
  std::uint64_t hp = 0;                     // unbuffered operations taking effect at the sync
  std::vector<std::uint32_t> queue;         // the draws of the queue's order
  enum { open, synced, ended } end = open;  // cut off, ended by a sync, ended by bsp_end
};

std::vector<Segment> read_rank(const std::string& path, int rank, const Reader& r) {
  const Header& h = r.header();
  if (h.strategy != kMpiRankStrategy || h.seed != static_cast<std::uint64_t>(rank))
    throw TraceError(path + ": not the record of MPI rank " + std::to_string(rank) + " (its strategy is '" +
                     h.strategy + "')");
  std::vector<Segment> segments(1);
  for (const Event& e : r.events()) {
    Segment& s = segments.back();
    // (after bsp_end only what the final barrier delivered)
    if (e.type == Event::end) break;
    if (s.end != Segment::open && e.type != Event::choice)
      throw TraceError(path + ": records after the end of the run");
    if (e.type == Event::call) {
      if (e.rec.pid != static_cast<std::uint32_t>(rank))
        throw TraceError(path + ": a call of process " + std::to_string(e.rec.pid) + " in rank " +
                         std::to_string(rank) + "'s record");
      s.calls.push_back(e.rec);
      if (e.rec.call == Call::end) s.end = Segment::ended;
    } else if (e.type == Event::choice && e.kind == static_cast<std::uint8_t>(rt::ChoiceKind::hp_timing)) {
      s.hp += e.value;
    } else if (e.type == Event::choice && e.kind == static_cast<std::uint8_t>(rt::ChoiceKind::queue_order)) {
      s.queue.push_back(static_cast<std::uint32_t>(e.value));
    } else if (e.type == Event::superstep) {
      if (e.value != segments.size())
        throw TraceError(path + ": superstep " + std::to_string(e.value) + " begins after " +
                         std::to_string(segments.size() - 1));
      s.end = Segment::synced;
      segments.emplace_back();
    }
    // A time record (a real bsp_time reading, realtime=1) is the rank's own: the engine's
    // readings are virtual, the merged trace holds none.
  }
  // A complete record ends with bsp_end; the end record itself is not an event.
  if (r.complete() && segments.back().end != Segment::ended)
    throw TraceError(path + ": the record ends without bsp_end");
  return segments;
}

// The draws of the barrier's hp-timing choices (rt::HpOperations::taking_order: each takes the
// pending operation at its index and moves the last one there) that take n operations in their
// issue order, as the MPI back end performs them.
std::vector<std::uint32_t> hp_picks_in_issue_order(std::uint64_t n) {
  std::vector<std::uint32_t> pending(n), where(n), picks;
  for (std::uint32_t k = 0; k < n; ++k) pending[k] = where[k] = k;
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint32_t j = where[k];
    picks.push_back(j);
    pending[j] = pending.back();
    where[pending[j]] = j;
    pending.pop_back();
  }
  return picks;
}

}  // namespace

std::string rank_trace_prefix(const std::string& path) {
  const std::size_t dot = path.rfind(".rank");
  if (dot == std::string::npos || dot + 5 == path.size()) return "";
  if (!std::all_of(path.begin() + static_cast<long>(dot) + 5, path.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return "";
  return path.substr(0, dot);
}

std::string records_prefix(const std::string& path) {
  if (std::string prefix = rank_trace_prefix(path); !prefix.empty()) return prefix;
  std::error_code ec;
  return std::filesystem::exists(rank_trace_path(path, 0), ec) ? path : "";
}

int merge_rank_traces(const std::string& prefix, const std::string& merged_path, RanksMemory* memory) {
  const Reader first = Reader::open(rank_trace_path(prefix, 0));
  const Header& h0 = first.header();
  const int p = static_cast<int>(h0.procs);
  std::vector<std::vector<Segment>> ranks;
  for (int k = 0; k < p; ++k) {
    const std::string path = rank_trace_path(prefix, k);
    if (k > 0 && !std::filesystem::exists(path))
      throw TraceError(path + ": missing: the run had " + std::to_string(p) + " processes, each writes its record");
    const Reader r = k == 0 ? first : Reader::open(path);
    if (r.header().procs != h0.procs || r.header().program_digest != h0.program_digest)
      throw TraceError(path + ": the record of another run (another program or process count than " +
                       rank_trace_path(prefix, 0) + ")");
    ranks.push_back(read_rank(path, k, r));
    if (memory && !r.memory().empty()) {
      const std::uint64_t bytes = r.memory().back().bytes;
      ++memory->measured;
      memory->total += bytes;
      if (bytes > memory->largest || memory->largest_rank < 0) {
        memory->largest = bytes;
        memory->largest_rank = k;
      }
    }
  }
  Header h = h0;
  h.seed = 0;
  h.strategy = kMpiStrategy;
  Writer out(merged_path, h);
  std::size_t supersteps = 0;
  for (const auto& segments : ranks) supersteps = std::max(supersteps, segments.size());
  for (std::size_t s = 0; s < supersteps; ++s) {
    bool all_closed = true, any_ended = false, all_ended = true;
    for (int k = 0; k < p; ++k) {
      if (s >= ranks[static_cast<std::size_t>(k)].size()) {
        all_closed = all_ended = false;
        continue;
      }
      const Segment& seg = ranks[static_cast<std::size_t>(k)][s];
      for (const CallRecord& c : seg.calls) out.call(c);
      all_closed = all_closed && seg.end != Segment::open;
      any_ended = any_ended || seg.end == Segment::ended;
      all_ended = all_ended && seg.end == Segment::ended;
    }
    if (!all_closed) return p;  // cut off: the replay goes on from here without the record
    if (any_ended && !all_ended)
      throw TraceError(prefix + ": the ranks' records disagree on the superstep that ends the run (" +
                       std::to_string(s) + ")");
    std::uint64_t hp = 0;
    for (const auto& segments : ranks) hp += segments[s].hp;
    for (std::uint32_t pick : hp_picks_in_issue_order(hp))
      out.choice(static_cast<std::uint8_t>(rt::ChoiceKind::hp_timing), pick);
    for (const auto& segments : ranks)  // receivers in ascending pid order, as the engine draws them
      for (std::uint32_t draw : segments[s].queue)
        out.choice(static_cast<std::uint8_t>(rt::ChoiceKind::queue_order), draw);
    if (all_ended) {
      out.end();
      return p;
    }
    out.superstep(s + 1);
  }
  return p;
}

}  // namespace bspcheck::trace
