// checker/range_stamps: a stamp tells whether a range's bytes changed, exactly up to 64 bytes
// (any single byte changed, at any length and offset) and by hash above; stamps stay valid as the
// arena grows, until forget().
#include "checker/range_stamps.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

using bspcheck::checker::RangeStamps;

TEST(RangeStamps, EveryByteChangedAtEveryLengthIsSeen) {
  std::vector<unsigned char> memory(300);
  std::mt19937 rng(7);
  for (unsigned char& c : memory) c = static_cast<unsigned char>(rng());
  RangeStamps stamps;
  for (std::size_t n = 1; n <= 140; ++n) {
    for (std::size_t offset : {0, 1, 7, 13}) {
      unsigned char* p = memory.data() + offset;
      const std::uint64_t stamp = stamps.take(p, n);
      EXPECT_TRUE(stamps.same(p, n, stamp)) << n << " bytes at " << offset;
      for (std::size_t i = 0; i < n; ++i) {
        p[i] ^= 0x10;
        EXPECT_FALSE(stamps.same(p, n, stamp)) << "byte " << i << " of " << n << " at " << offset;
        p[i] ^= 0x10;
      }
      // The bytes just outside the range are not part of it.
      memory[offset + n] ^= 0xff;
      if (offset > 0) memory[offset - 1] ^= 0xff;
      EXPECT_TRUE(stamps.same(p, n, stamp)) << n << " bytes at " << offset << ", neighbours changed";
      memory[offset + n] ^= 0xff;
      if (offset > 0) memory[offset - 1] ^= 0xff;
    }
  }
}

TEST(RangeStamps, EarlierStampsSurviveTheArenaGrowingAndGoAtForget) {
  RangeStamps stamps;
  std::vector<std::vector<unsigned char>> ranges;
  std::vector<std::uint64_t> taken;
  for (int i = 0; i < 5000; ++i) {  // 5000 x 9..64 bytes: the arena moves several times
    ranges.emplace_back(9 + i % 56, static_cast<unsigned char>(i));
    ranges.back()[0] = static_cast<unsigned char>(i >> 8);
    taken.push_back(stamps.take(ranges.back().data(), ranges.back().size()));
  }
  for (std::size_t i = 0; i < ranges.size(); ++i)
    EXPECT_TRUE(stamps.same(ranges[i].data(), ranges[i].size(), taken[i]));
  ranges[4321][17] ^= 1;  // its last byte (18 bytes)
  EXPECT_FALSE(stamps.same(ranges[4321].data(), ranges[4321].size(), taken[4321]));
  // After forget(), the arena starts over: a new stamp takes the first offset again.
  stamps.forget();
  EXPECT_EQ(stamps.take(ranges[0].data(), ranges[0].size()), 0u);
}

TEST(RangeStamps, TheSameBytesElsewhereHaveTheSameStamp) {
  // The engine stamps a destination once for an operation whose source is its destination, and
  // compares a stamp taken of one range with the bytes of another only where they must be equal.
  std::vector<unsigned char> a(200, 3), b(200, 3);
  RangeStamps stamps;
  for (std::size_t n : {4, 8, 64, 65, 200}) {
    const std::uint64_t stamp = stamps.take(a.data(), n);
    EXPECT_TRUE(stamps.same(b.data(), n, stamp)) << n;
    b[n - 1] = 4;
    EXPECT_FALSE(stamps.same(b.data(), n, stamp)) << n;
    b[n - 1] = 3;
  }
}
