// range_stamps.hpp: what the checker keeps of a range of memory to tell later whether its bytes
// changed (the hazards of unbuffered operations: hp-src-modified, hp-dst-conflict). A stamp of
// at most kKeptBytes is the bytes themselves, kept in the stamp up to 8 bytes and in a superstep's
// arena above: comparing them is exact, and copying and comparing 64 bytes takes a third of the
// instructions of hashing them, which a checked ring of 64-byte hpputs did for each range five
// times (issue 47, goal 3). A larger range's stamp is its content hash (runtime/base/hash.hpp).
// Stamps are taken and compared within one superstep; forget() at its barrier starts over.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "runtime/base/hash.hpp"
#include "runtime/base/pod_vector.hpp"

namespace bspcheck::checker {

// The sanitizers are told nothing of the stamps' reads: the checker reads ranges the runtime has
// poisoned for the program (an hpput's destination, hp-dst-read), as content_hash does. In a
// sanitized build the two entry points are functions of their own, since code inlined into an
// instrumented caller would be instrumented as the caller's (and a read of a poisoned destination
// at the call would be reported as the program's); in a plain build they inline.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BSPCHECK_STAMP_ENTRY __attribute__((no_sanitize("address", "thread", "undefined"), noinline))
#else
#define BSPCHECK_STAMP_ENTRY
#endif

class RangeStamps {
 public:
  static constexpr std::size_t kKeptBytes = 64;
  // Is a stamp of n bytes a hash (equal stamps of different bytes are then possible, if unlikely)?
  static bool hashed(std::size_t n) { return n > kKeptBytes; }

  // A stamp of the n bytes at p as they are now.
  BSPCHECK_STAMP_ENTRY std::uint64_t take(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    if (n <= 8) return small_word(b, n);
    if (hashed(n)) return rt::content_hash(p, n);
    const std::size_t at = kept_.size();
    kept_.resize_uninitialized(at + n);
    copy_words(kept_.data() + at, b, n);
    return at;
  }
  // Are the n bytes at p those the stamp saw?
  BSPCHECK_STAMP_ENTRY bool same(const void* p, std::size_t n, std::uint64_t stamp) const {
    const auto* b = static_cast<const unsigned char*>(p);
    if (n <= 8) return small_word(b, n) == stamp;
    if (hashed(n)) return rt::content_hash(p, n) == stamp;
    return same_words(kept_.data() + stamp, b, n);
  }
  // The superstep is over: its stamps are not compared again (the arena's memory is kept).
  void forget() { kept_.clear(); }

 private:
#define BSPCHECK_STAMP_READ __attribute__((no_sanitize("address", "thread", "undefined"), always_inline)) static inline
  BSPCHECK_STAMP_READ std::uint64_t word_at(const unsigned char* b) {
    std::uint64_t w;
    std::memcpy(&w, b, 8);
    return w;
  }
  // At most 8 bytes, zero-extended: the stamp is the bytes.
  BSPCHECK_STAMP_READ std::uint64_t small_word(const unsigned char* b, std::size_t n) {
    std::uint64_t w = 0;
    for (std::size_t i = 0; i < n; ++i) w |= static_cast<std::uint64_t>(b[i]) << (8 * i);
    return w;
  }
  // 8 < n <= kKeptBytes, 16 bytes at a time as one vector (GCC's vector extension: one load, one
  // store or xor each), the last piece overlapping the one before: 64 bytes are four of each.
  using Piece = std::uint64_t __attribute__((vector_size(16)));
  BSPCHECK_STAMP_READ Piece piece_at(const unsigned char* b) {
    Piece v;
    std::memcpy(&v, b, 16);
    return v;
  }
  BSPCHECK_STAMP_READ void copy_words(unsigned char* to, const unsigned char* from, std::size_t n) {
    if (n < 16) {
      const std::uint64_t first = word_at(from), last = word_at(from + n - 8);
      std::memcpy(to, &first, 8);
      std::memcpy(to + n - 8, &last, 8);
      return;
    }
    for (std::size_t i = 0; i + 16 < n; i += 16) {
      const Piece v = piece_at(from + i);
      std::memcpy(to + i, &v, 16);
    }
    const Piece last = piece_at(from + n - 16);
    std::memcpy(to + n - 16, &last, 16);
  }
  BSPCHECK_STAMP_READ bool same_words(const unsigned char* kept, const unsigned char* b, std::size_t n) {
    if (n < 16) return ((word_at(kept) ^ word_at(b)) | (word_at(kept + n - 8) ^ word_at(b + n - 8))) == 0;
    Piece differ = piece_at(kept + n - 16) ^ piece_at(b + n - 16);
    for (std::size_t i = 0; i + 16 < n; i += 16) differ |= piece_at(kept + i) ^ piece_at(b + i);
    return (differ[0] | differ[1]) == 0;
  }
#undef BSPCHECK_STAMP_READ

  rt::PodVector<unsigned char> kept_;  // this superstep's kept bytes, the stamps their offsets
};

#undef BSPCHECK_STAMP_ENTRY

}  // namespace bspcheck::checker
