#include "mpi/transport/exchange.hpp"

#include <cstring>
#include <stdexcept>

namespace bspcheck::mpi {

Exchange::Exchange(MPI_Comm comm, int nprocs)
    : comm_(comm),
      out_(static_cast<std::size_t>(nprocs)),
      send_counts_(static_cast<std::size_t>(nprocs)),
      send_displs_(static_cast<std::size_t>(nprocs)),
      recv_counts_(static_cast<std::size_t>(nprocs)),
      recv_displs_(static_cast<std::size_t>(nprocs)),
      headers_out_(2 * static_cast<std::size_t>(nprocs)),
      headers_in_(2 * static_cast<std::size_t>(nprocs)) {}

bool Exchange::run(bool flag) {
  const std::size_t p = out_.size();
  std::size_t total = 0;
  for (std::size_t d = 0; d < p; ++d) {
    // MPI's counts are ints: a superstep sends less than 2 GiB to each rank (docs/mpi.md).
    if (out_[d].size() > static_cast<std::size_t>(INT32_MAX)) throw std::length_error("bsp-check mpi: 2 GiB per pair");
    send_counts_[d] = static_cast<int>(out_[d].size());
    send_displs_[d] = static_cast<int>(total);
    total += out_[d].size();
  }
  packed_.resize(total);
  for (std::size_t d = 0; d < p; ++d)
    if (!out_[d].empty()) std::memcpy(packed_.data() + send_displs_[d], out_[d].data(), out_[d].size());
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
    recv_displs_[s] = static_cast<int>(received);
    received += static_cast<std::size_t>(recv_counts_[s]);
  }
  in_.resize(received);
  MPI_Alltoallv(packed_.data(), send_counts_.data(), send_displs_.data(), MPI_BYTE, in_.data(), recv_counts_.data(),
                recv_displs_.data(), MPI_BYTE, comm_);
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
