// mpi/transport/registered_window's AttachedRuns: overlapping registrations, pushed and popped in
// any order, never attach a page twice (MPI forbids it), keep every page of a live registration in
// exactly one attached run, and detach each run once, when its last holder goes.
#include "mpi/transport/registered_window.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

using bspcheck::mpi::AttachedRuns;
using Span = AttachedRuns::Span;

namespace {

constexpr std::uintptr_t kPage = AttachedRuns::kPage;
constexpr std::uintptr_t kBase = 0x10000000;

}  // namespace

TEST(AttachedRuns, AnOverlappingRegistrationAttachesOnlyThePagesNotYetAttached) {
  AttachedRuns runs;
  EXPECT_EQ(runs.cover(kBase + 100, 2 * kPage), (std::vector<Span>{{kBase, kBase + 3 * kPage}}));
  // A member of it: nothing new. One that reaches past it: only the pages beyond.
  EXPECT_TRUE(runs.cover(kBase + kPage + 8, 4).empty());
  EXPECT_EQ(runs.cover(kBase + 2 * kPage, 3 * kPage), (std::vector<Span>{{kBase + 3 * kPage, kBase + 5 * kPage}}));
  // The first goes: its run stays while the others hold it; then each run goes once.
  EXPECT_TRUE(runs.uncover(kBase + 100, 2 * kPage).empty());
  EXPECT_TRUE(runs.uncover(kBase + kPage + 8, 4).empty());
  EXPECT_EQ(runs.uncover(kBase + 2 * kPage, 3 * kPage),
            (std::vector<Span>{{kBase, kBase + 3 * kPage}, {kBase + 3 * kPage, kBase + 5 * kPage}}));
  EXPECT_TRUE(runs.runs().empty());
  EXPECT_TRUE(runs.cover(0, 64).empty());     // NULL
  EXPECT_TRUE(runs.cover(kBase, 0).empty());  // no bytes
}

TEST(AttachedRuns, AnyOrderOfPushesAndPopsKeepsRunsDisjointAndEveryLivePageInOne) {
  std::mt19937_64 rng(20261206);
  for (int round = 0; round < 200; ++round) {
    AttachedRuns runs;
    std::vector<std::pair<std::uintptr_t, std::uint64_t>> live;
    std::map<std::uintptr_t, std::uintptr_t> attached;  // as MPI would hold them: begin -> end
    for (int step = 0; step < 60; ++step) {
      if (live.empty() || rng() % 3 != 0) {
        const std::uintptr_t addr = kBase + rng() % (16 * kPage);
        const std::uint64_t size = 1 + rng() % (3 * kPage);
        for (const Span& s : runs.cover(addr, size)) {
          // Never a byte attached twice.
          for (const auto& [b, e] : attached) ASSERT_TRUE(s.end <= b || e <= s.begin);
          ASSERT_EQ(s.begin % kPage, 0u);
          ASSERT_EQ(s.end % kPage, 0u);
          attached[s.begin] = s.end;
        }
        live.push_back({addr, size});
      } else {
        const std::size_t k = rng() % live.size();
        for (const Span& s : runs.uncover(live[k].first, live[k].second)) {
          ASSERT_EQ(attached.count(s.begin), 1u);  // detached as it was attached, once
          ASSERT_EQ(attached[s.begin], s.end);
          attached.erase(s.begin);
        }
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      }
      // Every page of a live registration is in one attached run.
      for (const auto& [addr, size] : live)
        for (std::uintptr_t page = addr & ~(kPage - 1); page < addr + size; page += kPage)
          ASSERT_EQ(std::count_if(attached.begin(), attached.end(),
                                  [&](const auto& r) { return r.first <= page && page + kPage <= r.second; }),
                    1);
      std::vector<Span> now;
      for (const auto& [b, e] : attached) now.push_back({b, e});
      ASSERT_EQ(runs.runs(), now);
    }
    for (const auto& [addr, size] : live)
      for (const Span& s : runs.uncover(addr, size)) attached.erase(s.begin);
    EXPECT_TRUE(attached.empty());
    EXPECT_TRUE(runs.runs().empty());
  }
}
