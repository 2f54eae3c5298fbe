#include "mpi/transport/exchange.hpp"

#include <cstring>
#include <stdexcept>

namespace bspcheck::mpi {

Exchange::Exchange(MPI_Comm comm, int nprocs, int tag)
    : comm_(comm),
      tag_(tag),
      out_(static_cast<std::size_t>(nprocs)),
      send_counts_(static_cast<std::size_t>(nprocs)),
      recv_counts_(static_cast<std::size_t>(nprocs)),
      recv_displs_(static_cast<std::size_t>(nprocs)),
      headers_out_(2 * static_cast<std::size_t>(nprocs)),
      headers_in_(2 * static_cast<std::size_t>(nprocs)) {
  MPI_Comm_rank(comm, &self_);
}

bool Exchange::run(bool flag) {
  const std::size_t p = out_.size();
  for (std::size_t d = 0; d < p; ++d) {
    // MPI's counts are ints: a superstep sends less than 2 GiB to each rank (docs/mpi.md).
    if (out_[d].size() > static_cast<std::size_t>(INT32_MAX)) throw std::length_error("bsp-check mpi: 2 GiB per pair");
    send_counts_[d] = static_cast<int>(out_[d].size());
  }
  for (std::size_t d = 0; d < p; ++d) {
    headers_out_[2 * d] = send_counts_[d];
    headers_out_[2 * d + 1] = flag;
  }
  MPI_Alltoall(headers_out_.data(), 2, MPI_INT, headers_in_.data(), 2, MPI_INT, comm_);
  std::size_t received = 0;
  bool any_flag = false;
  for (std::size_t s = 0; s < p; ++s) {
    recv_counts_[s] = headers_in_[2 * s];
    any_flag = any_flag || headers_in_[2 * s + 1] != 0;
    recv_displs_[s] = received;
    received += static_cast<std::size_t>(recv_counts_[s]);
  }
  in_.resize(received);
  requests_.clear();
  const auto self = static_cast<std::size_t>(self_);
  for (std::size_t s = 0; s < p; ++s)
    if (s != self && recv_counts_[s] > 0)
      MPI_Irecv(in_.data() + recv_displs_[s], recv_counts_[s], MPI_BYTE, static_cast<int>(s), tag_, comm_,
                &requests_.emplace_back());
  for (std::size_t d = 0; d < p; ++d)
    if (d != self && !out_[d].empty())
      MPI_Isend(out_[d].data(), send_counts_[d], MPI_BYTE, static_cast<int>(d), tag_, comm_, &requests_.emplace_back());
  if (!out_[self].empty()) std::memcpy(in_.data() + recv_displs_[self], out_[self].data(), out_[self].size());
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  for (auto& b : out_) b.clear();
  return any_flag;
}

std::span<const std::byte> Exchange::received(int pid) const {
  const auto s = static_cast<std::size_t>(pid);
  return {in_.data() + recv_displs_[s], static_cast<std::size_t>(recv_counts_[s])};
}

void append_bytes(std::vector<std::byte>& buf, const void* data, std::size_t n) {
  if (n == 0) return;
  const auto* b = static_cast<const std::byte*>(data);
  buf.insert(buf.end(), b, b + n);
}

void Reader::copy_out(void* dst, std::size_t n) { std::memcpy(dst, take(n), n); }

const std::byte* Reader::take(std::size_t n) {
  if (pos_ + n > bytes_.size()) throw std::out_of_range("bsp-check mpi: a received buffer ends early");
  const std::byte* at = bytes_.data() + pos_;
  pos_ += n;
  return at;
}

}  // namespace bspcheck::mpi
