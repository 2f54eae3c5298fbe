// varint.hpp: LEB128 varints and zigzag signs, the one integer encoding of bsp-check's binary
// formats (the trace, replay/trace_format; the compact run report, checker/binary_report).
//
// LEB128: seven bits a byte, lowest first, the high bit set on every byte but the last; a 64-bit
// value takes one to ten bytes. Zigzag maps small negative numbers to small unsigned ones
// (0, -1, 1, -2, ... -> 0, 1, 2, 3, ...), so that they stay one byte too.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bspcheck::rt {

constexpr std::size_t kMaxLeb128Bytes = 10;

// Writes v at p (room for kMaxLeb128Bytes); returns the byte after it.
inline std::uint8_t* leb128_encode(std::uint8_t* p, std::uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<std::uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<std::uint8_t>(v);
  return p;
}

// Reads a value byte by byte from next() (which checks its own bounds, as its reader wants); false
// when no byte ends it within kMaxLeb128Bytes.
template <class NextByte>
bool leb128_decode(NextByte&& next, std::uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    const std::uint8_t b = static_cast<std::uint8_t>(next());
    v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

inline std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
inline std::int64_t unzigzag(std::uint64_t z) {
  return static_cast<std::int64_t>(z >> 1) ^ -static_cast<std::int64_t>(z & 1);
}

}  // namespace bspcheck::rt
