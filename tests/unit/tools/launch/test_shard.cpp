// tools/launch/shard: `--shard I/N` parts a session's runs; together the parts are the session.
#include "tools/launch/shard.hpp"

#include <gtest/gtest.h>

#include <string>

using bspcheck::cli::parse_shard;

TEST(Shard, ParsesIndexOverCount) {
  std::string error;
  const auto s = parse_shard("3/64", error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->index, 3u);
  EXPECT_EQ(s->count, 64u);
  EXPECT_EQ(s->text(), "3/64");
}

TEST(Shard, RejectsAnIndexOutsideItsCount) {
  for (const char* bad : {"4/4", "1/0", "3", "/4", "1/", "a/b", "-1/4", "0/1000001"}) {
    std::string error;
    EXPECT_FALSE(parse_shard(bad, error)) << bad;
    EXPECT_NE(error.find(std::string("got '") + bad + "'"), std::string::npos) << error;
  }
}

// Every run is in exactly one shard, and each shard's size counts its runs.
TEST(Shard, ShardsAreDisjointAndCoverTheSession) {
  for (std::uint64_t count : {1u, 2u, 3u, 7u}) {
    for (std::uint64_t runs : {0u, 1u, 5u, 20u}) {
      std::uint64_t total = 0;
      for (std::uint64_t k = 0; k < runs; ++k) {
        int owners = 0;
        for (std::uint64_t i = 0; i < count; ++i) owners += bspcheck::cli::Shard{i, count}.contains(k);
        EXPECT_EQ(owners, 1) << "run " << k << " of " << runs << " in " << count << " shards";
      }
      for (std::uint64_t i = 0; i < count; ++i) {
        const bspcheck::cli::Shard s{i, count};
        std::uint64_t mine = 0;
        for (std::uint64_t k = 0; k < runs; ++k) mine += s.contains(k);
        EXPECT_EQ(s.size(runs), mine);
        total += mine;
      }
      EXPECT_EQ(total, runs);
    }
  }
}
