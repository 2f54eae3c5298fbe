// runtime/base/pod_vector.hpp: records survive the reallocations of growth in order, and clear keeps
// the memory for the next superstep; ByteArena, built on it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "runtime/base/byte_arena.hpp"
#include "runtime/base/pod_vector.hpp"

using bspcheck::rt::PodVector;

namespace {
struct Record {
  std::uint64_t a;
  std::uint32_t b;
  char c;
};
}  // namespace

TEST(PodVector, RecordsSurviveGrowthInOrder) {
  PodVector<Record> v;
  EXPECT_TRUE(v.empty());
  constexpr std::uint32_t kN = 100'000;  // past a dozen doublings, and past malloc's mmap threshold
  for (std::uint32_t i = 0; i < kN; ++i) v.push_back({i * 3ull, i, static_cast<char>(i)});
  ASSERT_EQ(v.size(), kN);
  std::uint32_t bad = 0;
  std::uint32_t i = 0;
  for (const Record& r : v) {
    if (r.a != i * 3ull || r.b != i || r.c != static_cast<char>(i)) ++bad;
    ++i;
  }
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(v[kN - 1].b, kN - 1);
}

TEST(PodVector, ClearKeepsTheMemory) {
  PodVector<Record> v;
  for (std::uint32_t i = 0; i < 1000; ++i) v.push_back({i, i, 0});
  const Record* before = v.data();
  v.clear();
  EXPECT_TRUE(v.empty());
  for (std::uint32_t i = 0; i < 1000; ++i) v.push_back({i + 1, i, 0});
  EXPECT_EQ(v.data(), before) << "no new block for a superstep no larger than the last";
  EXPECT_EQ(v[999].a, 1000u);
}

TEST(PodVector, ResizeKeepsWhatWasWrittenAndSwapExchangesBlocks) {
  PodVector<std::uint32_t> a, b;
  a.resize_uninitialized(3);
  a[0] = 7, a[1] = 8, a[2] = 9;
  a.resize_uninitialized(50'000);  // grown by more than one doubling at once
  a[49'999] = 10;
  EXPECT_EQ(a.size(), 50'000u);
  EXPECT_EQ(a[0] + a[1] + a[2], 24u);
  a.resize_uninitialized(2);
  EXPECT_EQ(a.size(), 2u);
  EXPECT_EQ(a[1], 8u);
  b.push_back(1);
  const std::uint32_t* a_block = a.data();
  a.swap(b);
  EXPECT_EQ(b.data(), a_block);
  EXPECT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0], 1u);
  EXPECT_EQ(b.size(), 2u);
}

// ByteArena (runtime/base/byte_arena.hpp) is a PodVector of bytes: aligned offsets, bytes kept through
// growth.
TEST(ByteArena, ReservesAlignedOffsetsAndKeepsBytesThroughGrowth) {
  bspcheck::rt::ByteArena arena;
  EXPECT_EQ(arena.append("abc", 3), 0u);
  const std::size_t at = arena.reserve(8, 8);
  EXPECT_EQ(at, 8u) << "aligned up from 3";
  std::memcpy(arena.at(at), "01234567", 8);
  std::size_t last = 0;
  for (int i = 0; i < 10'000; ++i) last = arena.append("xyz", 3);
  EXPECT_EQ(arena.size(), last + 3);
  EXPECT_EQ(std::memcmp(arena.at(0), "abc", 3), 0);
  EXPECT_EQ(std::memcmp(arena.at(at), "01234567", 8), 0);
  bspcheck::rt::ByteArena other;
  other.swap(arena);
  EXPECT_EQ(arena.size(), 0u);
  EXPECT_EQ(std::memcmp(other.at(at), "01234567", 8), 0);
}
