// PerProcess<T> (runtime/base/huge_page_allocator.hpp): a vector whose large blocks are mappings
// of their own, aligned to 2 MiB and advised to use huge pages, and which behaves as a vector
// through growth across that size, copies and release.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "runtime/base/huge_page_allocator.hpp"

namespace {

using bspcheck::rt::PerProcess;
namespace huge_pages = bspcheck::rt::huge_pages;

// The smaps entry of the mapping that holds p: whether the kernel was told MADV_HUGEPAGE ("hg"
// among its VmFlags).
bool advised_huge(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2) {  // a mapping's header line
      inside = at >= lo && at < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line.find(" hg") != std::string::npos;
    }
  }
  return false;
}

TEST(HugePageAllocator, LargeBlocksAreAlignedAdvisedAndKeepTheirContentsThroughGrowth) {
  PerProcess<std::uint64_t> v;
  const std::size_t n = 3 * huge_pages::kHugePage / sizeof(std::uint64_t) + 17;  // grows past 2 MiB
  for (std::size_t i = 0; i < n; ++i) v.push_back(i * 7);
  ASSERT_EQ(v.size(), n);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % huge_pages::kHugePage, 0u);
  EXPECT_TRUE(advised_huge(v.data()));
  for (std::size_t i = 0; i < n; i += 4093) ASSERT_EQ(v[i], i * 7);
  EXPECT_EQ(v.back(), (n - 1) * 7);

  PerProcess<std::uint64_t> copy = v;  // a copy is a block of its own
  EXPECT_NE(copy.data(), v.data());
  EXPECT_EQ(copy, v);
  v.assign(n, 0);
  EXPECT_EQ(copy[n - 1], (n - 1) * 7);
  v.clear();
  v.shrink_to_fit();  // released: nothing to see but that it does not crash
  EXPECT_EQ(v.capacity(), 0u);
}

TEST(HugePageAllocator, SmallBlocksComeFromTheHeap) {
  PerProcess<int> small(1000, 5);
  EXPECT_FALSE(advised_huge(small.data()));
  EXPECT_EQ(small[999], 5);
}

}  // namespace
