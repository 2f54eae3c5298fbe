// h_relation.hpp: what each process communicates in a superstep, for the BSP cost model's
// h-relation (BSPlib paper 5.1; bspcheck::SuperstepStats): the payload bytes and the operations
// of puts, gets and sends, counted at the process that sends them and at the one that receives
// them. A process's h is max(sent, received); the superstep's, the largest over the processes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::rt {

class HRelation {
 public:
  // keep_history: every superstep's statistics are kept for stats() (the in-process API returns
  // them); a program's run keeps the last only, so that its memory does not grow with its
  // supersteps (a million supersteps would keep 32 MB).
  explicit HRelation(int nprocs = 0, bool keep_history = false)
      : counts_(static_cast<std::size_t>(nprocs)), keep_history_(keep_history) {}

  // nbytes of payload go from process `from` to process `to` (self-transfers count on both sides).
  void transfer(int from, int to, std::size_t nbytes) {
    Counts& f = counts_[static_cast<std::size_t>(from)];
    Counts& t = counts_[static_cast<std::size_t>(to)];
    if (f.ops_out == 0 && f.ops_in == 0) touched_.push_back(from);
    if (t.ops_out == 0 && t.ops_in == 0 && to != from) touched_.push_back(to);
    f.bytes_out += nbytes;
    f.ops_out += 1;
    t.bytes_in += nbytes;
    t.ops_in += 1;
  }

  // The superstep ends (a barrier, or bsp_end): its statistics, appended to stats() when the
  // history is kept; the counts start again.
  SuperstepStats end_superstep() {
    SuperstepStats st;
    for (int pid : touched_) {
      Counts& c = counts_[static_cast<std::size_t>(pid)];
      st.h_bytes = std::max({st.h_bytes, c.bytes_out, c.bytes_in});
      st.h_messages = std::max({st.h_messages, c.ops_out, c.ops_in});
      st.total_bytes += c.bytes_out;
      st.total_operations += c.ops_out;
      c = Counts{};
    }
    touched_.clear();
    if (keep_history_) stats_.push_back(st);
    return st;
  }
  const std::vector<SuperstepStats>& stats() const { return stats_; }

 private:
  struct Counts {
    std::size_t bytes_out = 0, bytes_in = 0, ops_out = 0, ops_in = 0;
  };
  std::vector<Counts> counts_;
  std::vector<int> touched_;  // the processes with counts in this superstep: only they are summed
  bool keep_history_ = false;
  std::vector<SuperstepStats> stats_;
};

}  // namespace bspcheck::rt
