// bench_data_checksum: the checksum a trace takes of every call's data (replay/trace_format.hpp,
// trace::checksum), as format version 2 took it (FNV-1a, 32 bits, a multiply per byte in one
// chain) and as version 3 takes it (CRC-32C), side by side in one run, ns per call at the sizes a
// program sends: an int, a double, a small struct, a cache line, a row, 1 MiB. The size is read at
// run time, as a call's is, so neither loop is unrolled for it.
//
//   build/bench/bench_data_checksum [CALLS_PER_SIZE]     (default 2,000,000 bytes' worth, at least 20 calls)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "replay/trace_format.hpp"

namespace {

double ns_per_call(std::uint16_t version, std::vector<unsigned char>& data, std::size_t size, long calls) {
  volatile std::uint32_t sink = 0;
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < calls; ++i) {
    data[0] = static_cast<unsigned char>(i);  // a new payload every call
    sink = sink + bspcheck::trace::checksum(data.data(), size, version);
  }
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
         static_cast<double>(calls);
}

}  // namespace

int main(int argc, char** argv) {
  const long budget = argc > 1 ? std::atol(argv[1]) : 200000000L;  // bytes summed per size and version
  volatile std::size_t opaque[] = {4, 8, 16, 64, 1024, std::size_t{1} << 20};
  std::vector<unsigned char> data(std::size_t{1} << 20);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>(i * 131 + 7);
  std::printf("| bytes | version 2 (FNV-1a) ns | version 3 (CRC-32C) ns | v3 / v2 |\n|---|---|---|---|\n");
  for (const std::size_t size : opaque) {
    const long calls = std::max(20L, budget / static_cast<long>(size < 64 ? 64 : size));
    double fnv = ns_per_call(2, data, size, calls), crc = ns_per_call(3, data, size, calls);
    fnv = std::min(fnv, ns_per_call(2, data, size, calls));  // the better of two rounds each, interleaved
    crc = std::min(crc, ns_per_call(3, data, size, calls));
    std::printf("| %zu | %.1f | %.1f | %.2f |\n", size, fnv, crc, crc / fnv);
  }
  return 0;
}
