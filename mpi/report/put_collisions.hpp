// put_collisions.hpp: put-collision decided at the rank written to. The exchange delivers to a
// rank every buffered put that lands on it in the superstep, each with its source rank and call
// site, and the replies to its own bsp_gets: so that rank alone sees two buffered writes (puts,
// gets, or one of each) of different data to the same bytes, and reports them with the engine's
// rule and text (checker/checker.cpp), naming both call sites.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mpi/report/findings.hpp"

namespace bspcheck::mpi {

// One buffered write as it reaches the rank: where it writes, its data (in the received buffer),
// the process whose call writes it (a put's source rank; for a bsp_get, the getting rank itself,
// as the engine names it) and the call's site (site->call says which of the two it is).
struct LandingWrite {
  std::uint64_t dst;
  std::uint32_t nbytes;
  const std::byte* data;
  int writer;
  const SiteRecord* site;
};

// The put-collision findings among `writes` (in the order they land: the gets' data first, then
// the puts' by source rank and program order, as BSPlib has every get land before any put) on
// rank `target`: one per pair of call sites, as the engine reports one per barrier.
std::vector<Finding> put_collisions(const std::vector<LandingWrite>& writes, int target, int superstep);

}  // namespace bspcheck::mpi
