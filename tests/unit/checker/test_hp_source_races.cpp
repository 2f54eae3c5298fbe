// checker/hp_source_races: which unbuffered operation's source another one of the superstep writes,
// from the log alone (canonical addresses), whatever the order of the calls.
#include "checker/hp_source_races.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <vector>

using bspcheck::checker::hp_sources_written;
using bspcheck::checker::HpRecord;
using bspcheck::checker::kNoWriter;

namespace {

char memory[1024];

HpRecord op(int src, int dst, std::uint32_t n, int caller) {
  HpRecord r{};
  r.src = memory + src;
  r.dst = memory + dst;
  r.nbytes = n;
  r.caller = caller;
  r.call = "bsp_hpput";
  return r;
}

}  // namespace

TEST(HpSourceRaces, AnHpgetWhoseSourceAnHpputWritesIsFoundInEitherOrder) {
  const HpRecord put = op(0, 64, 4, 0);    // process 0 writes [64, 68)
  const HpRecord get = op(66, 128, 4, 2);  // process 2 reads [66, 70): overlaps
  EXPECT_EQ(hp_sources_written(std::vector<HpRecord>{put, get}), (std::vector<std::size_t>{kNoWriter, 0}));
  EXPECT_EQ(hp_sources_written(std::vector<HpRecord>{get, put}), (std::vector<std::size_t>{1, kNoWriter}));
}

TEST(HpSourceRaces, AdjacentRangesAndAnOperationsOwnBytesAreNoRace) {
  const std::vector<HpRecord> ops{op(0, 64, 4, 0), op(68, 128, 4, 2), op(60, 132, 4, 1), op(200, 200, 8, 3)};
  // [68, 72) and [60, 64) touch [64, 68) without overlapping it; an hpput onto its own source is
  // one operation.
  EXPECT_EQ(hp_sources_written(ops), (std::vector<std::size_t>(4, kNoWriter)));
}

TEST(HpSourceRaces, AWideDestinationBeforeManyNarrowOnesIsStillSeen) {
  // The destination that covers the source starts first, with short ones after it: the search
  // backwards must not stop at the short ones.
  std::vector<HpRecord> ops{op(300, 10, 100, 0)};
  for (int k = 0; k < 8; ++k) ops.push_back(op(150, 20 + 2 * k, 1, 1));
  ops.push_back(op(90, 200, 4, 2));  // reads [90, 94), inside the first destination only
  const std::vector<std::size_t> writers = hp_sources_written(ops);
  EXPECT_EQ(writers.back(), 0u);
  for (std::size_t k = 0; k + 1 < ops.size(); ++k) EXPECT_EQ(writers[k], kNoWriter) << k;
}

TEST(HpSourceRaces, EmptyOperationsRaceWithNothing) {
  EXPECT_EQ(hp_sources_written(std::vector<HpRecord>{op(64, 0, 0, 0), op(0, 64, 4, 1)}),
            (std::vector<std::size_t>{kNoWriter, kNoWriter}));
  EXPECT_TRUE(hp_sources_written(std::vector<HpRecord>{}).empty());
}

// The granule filter in front of the search must neither lose a race nor invent one: random
// operations over a small area (many overlaps, ranges across granule borders, some spanning several
// granules), against a brute-force look at every pair.
TEST(HpSourceRaces, AgreesWithEveryPairLookedAt) {
  std::uint64_t state = 12345;
  const auto next = [&state](int bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(bound));
  };
  for (int round = 0; round < 300; ++round) {
    std::vector<HpRecord> ops;
    const int count = 1 + next(12);
    const int widest = round % 3 == 0 ? 250 : 40;
    for (int k = 0; k < count; ++k) {
      const auto n = static_cast<std::uint32_t>(next(widest));
      ops.push_back(op(next(512 - widest), next(512 - widest), n, k % 4));
    }
    const std::vector<std::size_t> writers = hp_sources_written(ops);
    const auto overlap = [&](std::size_t reader, std::size_t writer) {
      const auto lo = reinterpret_cast<std::uintptr_t>(ops[reader].src);
      const auto wlo = reinterpret_cast<std::uintptr_t>(ops[writer].dst);
      return reader != writer && ops[reader].nbytes && ops[writer].nbytes && wlo < lo + ops[reader].nbytes &&
             lo < wlo + ops[writer].nbytes;
    };
    for (std::size_t i = 0; i < ops.size(); ++i) {
      bool any = false;
      for (std::size_t j = 0; j < ops.size(); ++j) any = any || overlap(i, j);
      if (!any) {
        EXPECT_EQ(writers[i], kNoWriter) << "round " << round << " op " << i;
      } else {
        ASSERT_NE(writers[i], kNoWriter) << "round " << round << " op " << i;
        EXPECT_TRUE(overlap(i, writers[i])) << "round " << round << " op " << i;
      }
    }
  }
}

// The kept superstep must answer only for the same operations: a ring that repeats its hpputs,
// in other interleavings, then with one operation's source, destination or size changed so that
// it may now read another's destination. Every answer equals hp_sources_written's.
TEST(HpSourceRaces, AKeptSuperstepAnswersOnlyForTheSameOperations) {
  std::uint64_t state = 777;
  const auto next = [&state](int bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(bound));
  };
  bspcheck::checker::HpSourceRaces races;
  int clear_repeats = 0;
  for (int round = 0; round < 2000; ++round) {
    // Each of 4 processes reads its own 32-byte block and writes its successor's next block, so
    // that most supersteps have no race and a small change can make one.
    std::vector<HpRecord> ring;
    const int per_process = 1 + next(4);
    for (int k = 0; k < 4 * per_process; ++k) {
      const int caller = k % 4, slot = k / 4;
      ring.push_back(op(128 * caller + 32 * slot, 128 * ((caller + 1) % 4) + 32 * slot + 16, 8, caller));
    }
    const auto ask = [&](const std::vector<HpRecord>& ops, const char* what) {
      const std::vector<std::size_t> expected = hp_sources_written(ops);
      const std::span<const std::size_t> got = races.writers(ops);
      ASSERT_EQ(std::vector<std::size_t>(got.begin(), got.end()), expected) << "round " << round << ", " << what;
    };
    ask(ring, "first");
    // The processes' calls in another interleaving: each process's own order kept.
    std::vector<HpRecord> again;
    std::vector<std::size_t> next_of(4, 0);
    for (std::size_t left = ring.size(); left; --left) {
      int caller = next(4);
      while (next_of[caller] * 4 + caller >= ring.size()) caller = (caller + 1) % 4;
      again.push_back(ring[next_of[caller]++ * 4 + caller]);
    }
    ask(again, "again");
    // A first superstep without a race was kept, and its repeat answered by it.
    const std::vector<std::size_t> first = hp_sources_written(ring);
    clear_repeats += std::all_of(first.begin(), first.end(), [](std::size_t w) { return w == kNoWriter; });
    std::vector<HpRecord> changed = ring;
    HpRecord& c = changed[static_cast<std::size_t>(next(static_cast<int>(changed.size())))];
    switch (next(3)) {
      case 0:
        c.src = static_cast<const char*>(c.src) + 16 + 128 * next(4);
        break;  // onto a destination
      case 1:
        c.dst = memory + 128 * next(4) + 32 * next(per_process);
        break;  // onto a source
      default:
        c.nbytes = 24 + static_cast<std::uint32_t>(next(16));
        break;  // grown into the next block
    }
    ask(changed, "changed");
  }
  EXPECT_GT(clear_repeats, 1000);
}
