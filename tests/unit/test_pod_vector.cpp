// runtime/pod_vector.hpp: records survive the reallocations of growth in order, and clear keeps
// the memory for the next superstep.
#include <gtest/gtest.h>

#include <cstdint>

#include "runtime/pod_vector.hpp"

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
