#include "mpi/transport/agreement.hpp"

namespace bspcheck::mpi {

std::vector<Spread> spread_of(MPI_Comm comm, std::span<const std::int64_t> values) {
  const std::size_t n = values.size();
  std::vector<std::int64_t> both(2 * n), result(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    both[i] = values[i];
    both[n + i] = -values[i];
  }
  MPI_Allreduce(both.data(), result.data(), static_cast<int>(2 * n), MPI_INT64_T, MPI_MAX, comm);
  std::vector<Spread> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = {-result[n + i], result[i]};
  return out;
}

}  // namespace bspcheck::mpi
