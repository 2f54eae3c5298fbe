// hash.hpp: the hash functions of bsp-check, all here (header-only: the driver, which does not
// link the runtime, uses them too).
//
// - Fnv1a<Word>: FNV-1a, 32 or 64 bits, fed incrementally. For short input whose hash is written
//   down: the checksums of the bytes a traced call sends, the trace checksums of format version
//   1, the program digest in a trace, SARIF fingerprints, the per-process output digests the
//   driver compares across seeds.
// - Crc32c: CRC-32C, fed incrementally, with the SSE4.2 instruction where the processor has it.
//   For long streams whose checksum is written down: the trace checksums from format version 2.
// - content_hash: a fast hash for bulk bytes compared for equality within one run (the checker's
//   snapshots of hp sources and destinations): one chain of 128-bit multiplies up to 64 bytes,
//   four lanes beyond. Never persisted.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace bspcheck::rt {

// The FNV parameters (Fowler, Noll, Vo; IETF draft-eastlake-fnv).
inline constexpr std::uint32_t kFnv1a32Basis = 2166136261u;
inline constexpr std::uint32_t kFnv1a32Prime = 16777619u;
inline constexpr std::uint64_t kFnv1a64Basis = 14695981039346656037ull;
inline constexpr std::uint64_t kFnv1a64Prime = 1099511628211ull;

// The standard 64-bit basis with its last digit lost, as an earlier bsp-check wrote it. The
// program digest of trace formats 1 and 2 and SARIF's partialFingerprints["bspCheckFinding/v1"]
// were computed from it, and both outlive a build (traces are replayed by later builds, code
// scanning matches alerts across runs by fingerprint), so those two keep it. Anything new uses
// kFnv1a64Basis; moving them to it means a new trace format version and fingerprint v2.
inline constexpr std::uint64_t kFnv1a64LegacyBasis = 1469598103934665603ull;

template <typename Word>
class Fnv1a {
  static_assert(sizeof(Word) == 4 || sizeof(Word) == 8, "FNV-1a is defined here for 32 and 64 bits");

 public:
  static constexpr Word kBasis = sizeof(Word) == 4 ? Word(kFnv1a32Basis) : Word(kFnv1a64Basis);
  static constexpr Word kPrime = sizeof(Word) == 4 ? Word(kFnv1a32Prime) : Word(kFnv1a64Prime);

  constexpr Fnv1a() = default;
  explicit constexpr Fnv1a(Word basis) : h_(basis) {}

  constexpr void add(std::uint8_t byte) { h_ = (h_ ^ byte) * kPrime; }
  void add(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) add(b[i]);
  }
  constexpr void add(std::string_view s) {
    for (char c : s) add(static_cast<std::uint8_t>(c));
  }
  constexpr Word value() const { return h_; }

 private:
  Word h_ = kBasis;
};

using Fnv1a32 = Fnv1a<std::uint32_t>;
using Fnv1a64 = Fnv1a<std::uint64_t>;

inline std::uint32_t fnv1a32(const void* p, std::size_t n) {
  Fnv1a32 h;
  h.add(p, n);
  return h.value();
}

inline std::uint64_t fnv1a64(const void* p, std::size_t n) {
  Fnv1a64 h;
  h.add(p, n);
  return h.value();
}

// CRC-32C (Castagnoli: iSCSI, ext4, SSE4.2's crc32 instruction): the reflected polynomial
// 0x82F63B78, initial value and final xor 0xFFFFFFFF; "123456789" gives 0xE3069283. Built for
// error detection, and eight bytes per instruction where FNV-1a takes a multiply per byte.
class Crc32c {
 public:
  void add(const void* p, std::size_t n) { crc_ = update(crc_, static_cast<const unsigned char*>(p), n); }
  std::uint32_t value() const { return ~crc_; }

 private:
  static constexpr std::uint32_t kPolynomial = 0x82F63B78u;
  struct Table {
    std::uint32_t v[256];
    constexpr Table() : v() {
      for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (kPolynomial & (0u - (c & 1u)));
        v[i] = c;
      }
    }
  };
  static std::uint32_t update_bytes(std::uint32_t crc, const unsigned char* b, std::size_t n) {
    static constexpr Table table;
    for (std::size_t i = 0; i < n; ++i) crc = (crc >> 8) ^ table.v[(crc ^ b[i]) & 0xffu];
    return crc;
  }
#if defined(__x86_64__)
  __attribute__((target("sse4.2"))) static std::uint64_t words_sse42(std::uint64_t c, const unsigned char* b,
                                                                     std::size_t words) {
    for (; words; --words, b += 8) {
      std::uint64_t w;
      std::memcpy(&w, b, 8);
      c = __builtin_ia32_crc32di(c, w);
    }
    return c;
  }
  // Long runs (a trace's blocks) in three interleaved lanes: the crc32 instruction takes three
  // cycles but starts one per cycle, so one chain of them runs at a third of its speed. The
  // second and third lanes start from 0; the CRC is linear, so a lane's value moved past the kLane
  // zero bytes that follow it (Shift, a 32x32 bit matrix as four byte tables) and xored into the
  // next lane's gives the value of one chain over all three.
  static constexpr std::size_t kLane = 4096;
  struct Shift {
    std::uint32_t byte[4][256];
    Shift() {
      std::uint32_t basis[32];
      for (int i = 0; i < 32; ++i)
        basis[i] = static_cast<std::uint32_t>(words_sse42(std::uint64_t{1} << i, zeros().data(), kLane / 8));
      for (int k = 0; k < 4; ++k)
        for (std::uint32_t v = 0; v < 256; ++v) {
          std::uint32_t x = 0;
          for (int bit = 0; bit < 8; ++bit)
            if (v >> bit & 1u) x ^= basis[8 * k + bit];
          byte[k][v] = x;
        }
    }
    std::uint32_t operator()(std::uint32_t c) const {
      return byte[0][c & 0xffu] ^ byte[1][c >> 8 & 0xffu] ^ byte[2][c >> 16 & 0xffu] ^ byte[3][c >> 24];
    }
    static const std::array<unsigned char, kLane>& zeros() {
      static const std::array<unsigned char, kLane> z{};
      return z;
    }
  };
  __attribute__((target("sse4.2"))) static std::uint32_t update_sse42(std::uint32_t crc, const unsigned char* b,
                                                                      std::size_t n) {
    std::uint64_t c = crc;
    if (n >= 3 * kLane) {
      static const Shift shift;
      for (; n >= 3 * kLane; n -= 3 * kLane, b += 3 * kLane) {
        std::uint64_t c1 = c, c2 = 0, c3 = 0;
        for (std::size_t i = 0; i < kLane; i += 8) {
          std::uint64_t w1, w2, w3;
          std::memcpy(&w1, b + i, 8);
          std::memcpy(&w2, b + kLane + i, 8);
          std::memcpy(&w3, b + 2 * kLane + i, 8);
          c1 = __builtin_ia32_crc32di(c1, w1);
          c2 = __builtin_ia32_crc32di(c2, w2);
          c3 = __builtin_ia32_crc32di(c3, w3);
        }
        c = shift(shift(static_cast<std::uint32_t>(c1)) ^ static_cast<std::uint32_t>(c2)) ^
            static_cast<std::uint32_t>(c3);
      }
    }
    c = words_sse42(c, b, n / 8);
    b += n & ~std::size_t{7};
    auto c32 = static_cast<std::uint32_t>(c);
    // The last 0-7 bytes in at most three instructions (a put of an int is all tail): the wider
    // forms take their bytes in little-endian order, as the byte-wise one does one after another.
    if (n & 4) {
      std::uint32_t w;
      std::memcpy(&w, b, 4);
      c32 = __builtin_ia32_crc32si(c32, w);
      b += 4;
    }
    if (n & 2) {
      std::uint16_t w;
      std::memcpy(&w, b, 2);
      c32 = __builtin_ia32_crc32hi(c32, w);
      b += 2;
    }
    if (n & 1) c32 = __builtin_ia32_crc32qi(c32, *b);
    return c32;
  }
  static std::uint32_t update(std::uint32_t crc, const unsigned char* b, std::size_t n) {
    static const bool sse42 = __builtin_cpu_supports("sse4.2");
    return sse42 ? update_sse42(crc, b, n) : update_bytes(crc, b, n);
  }
#else
  static std::uint32_t update(std::uint32_t crc, const unsigned char* b, std::size_t n) {
    return update_bytes(crc, b, n);
  }
#endif
  std::uint32_t crc_ = 0xFFFFFFFFu;
};

// content_hash's short path: the 128-bit product of a and b, its halves folded (one multiply
// mixes 16 bytes; a multiplication by a nonzero 64-bit factor loses no bit of the other).
__attribute__((no_sanitize("address", "thread", "undefined"), always_inline)) inline std::uint64_t folded_product(
    std::uint64_t a, std::uint64_t b) {
  __extension__ using Wide = unsigned __int128;
  const Wide r = static_cast<Wide>(a) * b;
  return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
}

// content_hash of at most 64 bytes, the usual unbuffered operation: one chain of 128-bit
// multiplies, 16 bytes each, half the instructions of the four lanes below (a checked ring of
// 64-byte hpputs hashed each range five times, a third of its extra cost).
__attribute__((no_sanitize("address", "thread", "undefined"), always_inline)) inline std::uint64_t content_hash_short(
    const unsigned char* b, std::size_t n) {
  constexpr std::uint64_t k1 = 0xa0761d6478bd642fULL, k2 = 0xe7037ed1a0b428dbULL, k3 = 0x8ebc6af09c88c6e3ULL;
  std::uint64_t h = 0x589965cc75374cc3ULL ^ n;
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    std::uint64_t w0, w1;
    std::memcpy(&w0, b + i, 8);
    std::memcpy(&w1, b + i + 8, 8);
    h = folded_product(w0 ^ k1 ^ h, w1 ^ k2);
  }
  if (i + 8 <= n) {
    std::uint64_t w;
    std::memcpy(&w, b + i, 8);
    h = folded_product(w ^ k1 ^ h, k3);
    i += 8;
  }
  std::uint64_t tail = 0;  // the last 0-7 bytes, byte by byte (no call of memcpy, see below)
  for (int shift = 0; i < n; ++i, shift += 8) tail |= static_cast<std::uint64_t>(b[i]) << shift;
  return folded_product(h ^ k2, tail ^ k3 ^ n);
}

// content_hash of more than 64 bytes. Not instrumented (nor are the functions above): the bytes may lie in a region
// poisoned for a pending operation (an hpget's source that another process's hpput writes), and the runtime's hash of
// them is not the program's read. Its 8-byte memcpy are plain loads (RelWithDebInfo), not calls of the interceptor.
__attribute__((no_sanitize("address", "thread", "undefined"))) inline std::uint64_t content_hash_lanes(const void* p,
                                                                                                       std::size_t n) {
  // Only equality matters, and it runs over every unbuffered operation's source and destination
  // (five times per operation), so it must run near memory speed: four independent lanes of
  // multiply-xor over 32 bytes at a time keep the multiplier busy instead of waiting on one chain.
  constexpr std::uint64_t k = 0xff51afd7ed558ccdULL;
  const auto* b = static_cast<const unsigned char*>(p);
  std::uint64_t lane[4] = {0x9e3779b97f4a7c15ULL ^ n, 0xc2b2ae3d27d4eb4fULL, 0x165667b19e3779f9ULL,
                           0x27d4eb2f165667c5ULL};
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    for (int l = 0; l < 4; ++l) {
      std::uint64_t w;
      std::memcpy(&w, b + i + 8 * l, 8);
      lane[l] = (lane[l] ^ w) * k;
      lane[l] ^= lane[l] >> 32;
    }
  }
  std::uint64_t h = lane[0];
  for (int l = 1; l < 4; ++l) {
    h = (h ^ lane[l]) * k;
    h ^= h >> 29;
  }
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, b + i, 8);
    h = (h ^ w) * k;
    h ^= h >> 32;
  }
  for (; i < n; ++i) h = (h ^ b[i]) * kFnv1a64Prime;  // the tail: FNV's multiplier, byte by byte
  return h;
}

// Equal bytes give equal hashes whatever their alignment; the length is part of the hash. Small
// enough to be inlined where the sanitizers are off (the short path in it).
__attribute__((no_sanitize("address", "thread", "undefined"))) inline std::uint64_t content_hash(const void* p,
                                                                                                 std::size_t n) {
  return n <= 64 ? content_hash_short(static_cast<const unsigned char*>(p), n) : content_hash_lanes(p, n);
}

}  // namespace bspcheck::rt
