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
