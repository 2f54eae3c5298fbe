// exchange.hpp: the one all-to-all of a superstep's data, two-sided as BSPonMPI does it: each rank
// fills one byte buffer per destination, then every rank learns how much each other rank sends it
// (MPI_Alltoall of the counts) and receives it: a message from each buffer that is not empty,
// straight from it (MPI_Isend/MPI_Irecv; an MPI_Alltoallv would need them copied into one buffer
// first, a copy of every byte sent), and this rank's own bytes copied. docs/mpi.md says why
// two-sided rather than one-sided windows.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <span>
#include <vector>

namespace bspcheck::mpi {

class Exchange {
 public:
  // `tag`: this exchange's messages', told apart from another exchange's on the same communicator.
  Exchange(MPI_Comm comm, int nprocs, int tag);

  // What this rank sends to rank `pid` in the next run(); appended to by the packers.
  std::vector<std::byte>& outgoing(int pid) { return out_[static_cast<std::size_t>(pid)]; }
  // Sends every outgoing buffer to its rank and receives theirs; the outgoing buffers are emptied.
  // Collective: every rank of the communicator calls it. `flag` travels to every rank with the
  // counts (no collective of its own): the result says whether any rank raised it.
  bool run(bool flag = false);
  // What rank `pid` sent here in the last run().
  std::span<const std::byte> received(int pid) const;
  std::size_t bytes_received() const { return in_.size(); }

 private:
  MPI_Comm comm_;
  int tag_, self_ = 0;
  std::vector<std::vector<std::byte>> out_;
  std::vector<std::byte> in_;
  std::vector<MPI_Request> requests_;
  std::vector<int> send_counts_, recv_counts_;
  std::vector<std::size_t> recv_displs_;       // into in_: past 2 GiB in all, as long as each pair's is below
  std::vector<int> headers_out_, headers_in_;  // per rank: its count and the flag
};

// Appends the bytes of a trivially copyable value, or of a raw area, to a buffer.
template <class T>
void append_value(std::vector<std::byte>& buf, const T& v) {
  const auto* b = reinterpret_cast<const std::byte*>(&v);
  buf.insert(buf.end(), b, b + sizeof(T));
}
void append_bytes(std::vector<std::byte>& buf, const void* data, std::size_t n);

// Reads values back from a received buffer, in the order they were appended.
class Reader {
 public:
  explicit Reader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  bool done() const { return pos_ >= bytes_.size(); }
  template <class T>
  T value() {
    T v;
    copy_out(&v, sizeof(T));
    return v;
  }
  void copy_out(void* dst, std::size_t n);
  // The next n bytes, in place.
  const std::byte* take(std::size_t n);

 private:
  std::span<const std::byte> bytes_;
  std::size_t pos_ = 0;
};

}  // namespace bspcheck::mpi
