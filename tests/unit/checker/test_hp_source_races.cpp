// checker/hp_source_races: which unbuffered operation's source another one of the superstep writes,
// from the log alone (canonical addresses), whatever the order of the calls.
#include "checker/hp_source_races.hpp"

#include <gtest/gtest.h>

#include <vector>

using bspcheck::checker::hp_sources_written;
using bspcheck::checker::HpRecord;
using bspcheck::checker::kNoWriter;

namespace {

char memory[512];

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
