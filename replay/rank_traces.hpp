// rank_traces.hpp: the records the MPI back end's ranks write (docs/mpi.md, "Record and replay")
// and the engine trace merged from them. A rank's record is a trace of format 2 (strategy
// kMpiRankStrategy, the rank in the seed field) holding that rank's calls in program order, a
// superstep record at each sync, and before it what the sync delivered: the order of the rank's
// queue and the number of its unbuffered operations. The merged trace (strategy kMpiStrategy)
// lists, superstep by superstep, every rank's calls in pid order, then the barrier's outcomes as
// the engine's own choices: its replay runs the processes in pid order, so that the engine's issue
// order is the MPI run's (source rank, then program order), and the recorded choices turn it into
// the order the MPI run delivered.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bspcheck::trace {

// The draws of the engine's Fisher-Yates shuffle (rt::Scheduler::shuffle: for i = n down to 2,
// swap element i-1 with the draw's) that turn the issue order 0..n-1 into `order`, where
// order[k] is the issue index of the element that ends at position k. n - 1 draws (none below 2).
inline std::vector<std::uint32_t> shuffle_draws_for(const std::vector<std::uint32_t>& order) {
  const auto n = static_cast<std::uint32_t>(order.size());
  std::vector<std::uint32_t> at(n), where(n), draws;  // at: the element at a position; where: its inverse
  for (std::uint32_t k = 0; k < n; ++k) at[k] = where[k] = k;
  for (std::uint32_t i = n; i > 1; --i) {
    const std::uint32_t want = order[i - 1], j = where[want];
    draws.push_back(j);
    const std::uint32_t moved = at[i - 1];
    at[j] = moved;
    where[moved] = j;
    at[i - 1] = want;
    where[want] = i - 1;
  }
  return draws;
}

// A queue delivered with these senders, as the engine's issue order sees it: under the replay's
// pid-order schedule the engine queues a receiver's messages by sender, then in program order
// (MPI keeps the order of one sender's messages), so the k-th message from sender s has the issue
// index of all messages from lower senders plus k.
inline std::vector<std::uint32_t> queue_order_from_senders(const std::vector<int>& senders) {
  std::vector<std::uint32_t> below;  // below[s]: messages from senders lower than s
  for (int s : senders)
    if (static_cast<std::size_t>(s) + 1 > below.size()) below.resize(static_cast<std::size_t>(s) + 1);
  std::vector<std::uint32_t> count(below.size() + 1, 0);
  for (int s : senders) ++count[static_cast<std::size_t>(s) + 1];
  for (std::size_t s = 1; s < count.size(); ++s) count[s] += count[s - 1];
  std::vector<std::uint32_t> order;
  for (int s : senders) order.push_back(count[static_cast<std::size_t>(s)]++);
  return order;
}

inline std::string rank_trace_path(const std::string& prefix, int rank) {
  return prefix + ".rank" + std::to_string(rank);
}

// What the ranks' records say of their memory (their memory records, format 4 on): the sum of
// every rank's data at its peak, what a replay of them all in one process needs at least.
struct RanksMemory {
  int measured = 0;  // ranks whose record has a memory record (none before format 4)
  std::uint64_t total = 0, largest = 0;
  int largest_rank = -1;
};

// Merges the records prefix.rank0 .. prefix.rank<p-1> into one engine trace at merged_path;
// returns p, and, when asked, what the records say of the ranks' memory. Throws TraceError naming the reason when the
// records cannot be followed together (a missing or damaged rank's record, records of different programs or process
// counts, ranks that disagree on where the run ended). A record cut off (a job ended by a finding or a crash) gives a
// merged trace cut off after the last superstep every rank completed and the calls each made after it: its replay goes
// to the end of the record and on from there.
int merge_rank_traces(const std::string& prefix, const std::string& merged_path, RanksMemory* memory = nullptr);

// The prefix of a rank's record (its path without ".rank<K>"), or "" for another name.
std::string rank_trace_prefix(const std::string& path);
// The prefix of the MPI job's records that `path` names: the prefix of a record, or path itself
// where path.rank0 exists beside it (trace=PATH, also after an earlier merge left PATH); "" when
// it names none (an engine trace).
std::string records_prefix(const std::string& path);

}  // namespace bspcheck::trace
