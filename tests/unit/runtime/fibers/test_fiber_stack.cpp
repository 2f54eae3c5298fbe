// runtime/fibers/fiber_stack.hpp: stacks beyond the mapping budget have no guard page of their own; an
// overflow is seen after the fact by the canary below each, which lies in the top bytes of the
// stack below (a page that stack keeps resident anyway) and so costs no memory of its own.
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <vector>

#include "runtime/fibers/fiber_stack.hpp"

using bspcheck::rt::FiberStack;
using bspcheck::rt::StackPool;

namespace {

// Stacks per chunk grow with the count beyond the budget: 64 here, whose mappings are made only
// for the stacks asked for.
std::size_t sixty_four_per_chunk() { return StackPool::guarded_limit() * 64; }

}  // namespace

TEST(FiberStack, BeyondTheBudgetEachStackHasACanaryInTheStackBelow) {
  StackPool pool(16 * 1024, sixty_four_per_chunk());
  ASSERT_FALSE(pool.guarded());
  FiberStack lowest = pool.stack(0), a = pool.stack(3), b = pool.stack(4);
  EXPECT_EQ(a.guard, nullptr);
  EXPECT_EQ(lowest.canary, nullptr) << "the chunk's guard page is below the lowest stack";
  ASSERT_NE(a.canary, nullptr);
  EXPECT_EQ(static_cast<char*>(a.canary) + FiberStack::kCanaryBytes, a.base);
  // The canary is above the usable part of the stack below: nothing of b touches a's canary.
  EXPECT_EQ(a.top(), b.canary);
  EXPECT_FALSE(a.contains(b.canary));
  EXPECT_TRUE(a.canary_intact());
  EXPECT_TRUE(b.canary_intact());
}

TEST(FiberStack, AnyByteWrittenBelowAStackIsAnOverflow) {
  StackPool pool(16 * 1024, sixty_four_per_chunk());
  for (std::size_t at : {std::size_t{0}, std::size_t{7}, FiberStack::kCanaryBytes - 1}) {
    FiberStack s = pool.stack(10 + at);  // a fresh stack per case
    ASSERT_TRUE(s.canary_intact());
    static_cast<unsigned char*>(s.base)[-1 - static_cast<long>(at)] ^= 0x5a;
    EXPECT_FALSE(s.canary_intact()) << at << " bytes below the base";
  }
  // The stack's own lowest byte is a deep stack, not an overflow.
  FiberStack deep = pool.stack(50);
  static_cast<unsigned char*>(deep.base)[0] = 1;
  EXPECT_TRUE(deep.canary_intact());
}

TEST(FiberStack, GuardedStacksHaveNoCanary) {
  StackPool pool(16 * 1024, 4);
  ASSERT_TRUE(pool.guarded());
  FiberStack s = pool.stack(2);
  EXPECT_NE(s.guard, nullptr);
  EXPECT_EQ(s.canary, nullptr);
  EXPECT_EQ(s.size, 16u * 1024);
}

// The canaries live in the pages where the stacks below them start: with each process's first
// frame at the top of its stack and every canary checked, the lowest page of every stack is still
// not resident (a canary at each stack's own low end made it so: a page per process).
TEST(FiberStack, CanariesCostNoMemoryOfTheirOwn) {
  constexpr std::size_t kStacks = 200;
  StackPool pool(16 * 1024, sixty_four_per_chunk());
  std::vector<FiberStack> stacks;
  for (std::size_t i = 0; i < kStacks; ++i) stacks.push_back(pool.stack(i));
  for (const FiberStack& s : stacks) static_cast<char*>(s.top())[-8] = 1;  // each stack's first frame
  for (const FiberStack& s : stacks) ASSERT_TRUE(s.canary_intact());
  std::size_t resident = 0;
  for (const FiberStack& s : stacks) {
    unsigned char in_core = 0;
    ASSERT_EQ(mincore(s.base, StackPool::page_size(), &in_core), 0);
    resident += in_core & 1;
  }
  EXPECT_EQ(resident, 0u) << "stacks whose lowest page is resident";
}
