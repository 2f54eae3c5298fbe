// shard.hpp: `bsp-check run --shard I/N`: the I-th of N disjoint parts of a session's (p, seed)
// space, so that CI matrices and batch arrays spread one search over many machines and
// `bsp-check merge` joins their reports. The runs of a session are numbered in the order a
// single machine runs them (each p of -p in turn, its seeds in order); shard I takes the runs
// whose number is I modulo N, so every shard gets every p and a spread of seeds, the shards
// are disjoint, and together they are exactly the unsharded session.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace bspcheck::cli {

struct Shard {
  std::uint64_t index = 0;  // 0 <= index < count
  std::uint64_t count = 1;
  // Is run number k (0-based, in the session's order) in this shard?
  bool contains(std::uint64_t k) const { return k % count == index; }
  // How many of a session's `runs` runs are in it.
  std::uint64_t size(std::uint64_t runs) const { return runs / count + (index < runs % count ? 1 : 0); }
  std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

// "I/N" with 0 <= I < N <= 1000000; nothing, and `error` says why, otherwise.
std::optional<Shard> parse_shard(const std::string& text, std::string& error);

}  // namespace bspcheck::cli
