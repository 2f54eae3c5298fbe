// byte_arena.hpp: an append-only byte buffer that grows without zero-filling (std::vector would
// clear every byte it adds). Holds put payloads copied at the call and BSMP messages.
#pragma once

#include <cstddef>
#include <cstring>

#include "runtime/base/pod_vector.hpp"

namespace bspcheck::rt {

class ByteArena {
 public:
  // Reserves n bytes at an offset aligned to `align` (a power of two) and returns the offset.
  std::size_t reserve(std::size_t n, std::size_t align = 1) {
    const std::size_t off = (bytes_.size() + align - 1) & ~(align - 1);
    bytes_.resize_uninitialized(off + n);
    return off;
  }
  std::size_t append(const void* src, std::size_t n) {
    std::size_t off = reserve(n);
    if (n) std::memcpy(bytes_.data() + off, src, n);
    return off;
  }
  std::byte* at(std::size_t off) { return bytes_.data() + off; }
  const std::byte* at(std::size_t off) const { return bytes_.data() + off; }
  std::size_t size() const { return bytes_.size(); }
  void clear() { bytes_.clear(); }
  void swap(ByteArena& o) { bytes_.swap(o.bytes_); }

 private:
  PodVector<std::byte> bytes_;
};

}  // namespace bspcheck::rt
