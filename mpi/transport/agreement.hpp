// agreement.hpp: what the ranks compare at every sync without gathering it on one rank: the
// smallest and largest value of each of a few integers over all ranks, in one MPI_Allreduce (the
// maximum of each value and of its negation). Equal extremes mean every rank agrees; only then
// is nothing more exchanged. On a disagreement, gather_all() fetches the detail.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>
#include <vector>

namespace bspcheck::mpi {

struct Spread {
  std::int64_t min = 0, max = 0;
  bool agreed() const { return min == max; }
};

// Collective: each rank's values (the same count on every rank); their spread, on every rank.
std::vector<Spread> spread_of(MPI_Comm comm, std::span<const std::int64_t> values);

// Collective: every rank's copy of a trivially copyable record, indexed by rank.
template <class T>
std::vector<T> gather_all(MPI_Comm comm, const T& mine) {
  int p = 0;
  MPI_Comm_size(comm, &p);
  std::vector<T> all(static_cast<std::size_t>(p));
  MPI_Allgather(&mine, sizeof(T), MPI_BYTE, all.data(), sizeof(T), MPI_BYTE, comm);
  return all;
}

}  // namespace bspcheck::mpi
