// put_collisions.hpp: put-collision decided at the target rank. The exchange delivers to a rank
// every buffered put that lands on it in the superstep, each with its source rank and call site,
// so the target alone sees two puts that write different data to the same bytes, and reports them
// with the engine's rule and text (checker/checker.cpp), naming both call sites.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mpi/report/findings.hpp"

namespace bspcheck::mpi {

// One buffered put as it reaches its target: where it writes, its data (in the received buffer),
// who sent it and from where.
struct LandingPut {
  std::uint64_t dst;
  std::uint32_t nbytes;
  const std::byte* data;
  int source;
  const SiteRecord* site;
};

// The put-collision findings among `puts` (in the order they arrived: source rank, then program
// order) on rank `target`: one per pair of call sites, as the engine reports one per barrier.
std::vector<Finding> put_collisions(const std::vector<LandingPut>& puts, int target, int superstep);

}  // namespace bspcheck::mpi
