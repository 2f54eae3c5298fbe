// The MPI back end's put-collision at the rank written to (mpi/report/put_collisions.hpp), between
// puts and the rank's own gets, and the call sites that travel with puts (mpi/api/put_sites.hpp),
// without MPI.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mpi/api/put_sites.hpp"
#include "mpi/report/put_collisions.hpp"

namespace {

using bspcheck::mpi::CallSite;
using bspcheck::mpi::LandingWrite;
using bspcheck::mpi::put_collisions;
using bspcheck::mpi::PutSites;
using bspcheck::mpi::Reader;
using bspcheck::mpi::record_of;
using bspcheck::mpi::SiteRecord;

const SiteRecord kLine7 = record_of(CallSite{"gather.c", 7, "bsp_put"});
const SiteRecord kLine9 = record_of(CallSite{"gather.c", 9, "bsp_put"});

std::vector<std::byte> bytes(std::initializer_list<int> values) {
  std::vector<std::byte> b;
  for (int v : values) b.push_back(static_cast<std::byte>(v));
  return b;
}

TEST(MpiPutCollisions, OverlappingDifferentDataNamesBothSites) {
  const auto a = bytes({1, 2, 3, 4}), b = bytes({9, 9, 9, 9});
  const std::vector<LandingWrite> puts{{1000, 4, a.data(), 1, &kLine7}, {1002, 4, b.data(), 3, &kLine9}};
  const auto found = put_collisions(puts, 0, 5);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rule, "put-collision");
  EXPECT_EQ(found[0].superstep, 5);
  EXPECT_EQ(found[0].processes, (std::vector<int>{0, 1, 3}));
  EXPECT_NE(found[0].message.find("processes 1, 3 write different data to the same 2 bytes on process 0"),
            std::string::npos)
      << found[0].message;
  ASSERT_EQ(found[0].locations.size(), 2u);
  EXPECT_EQ(found[0].locations[0].line, 7);
  EXPECT_EQ(found[0].locations[0].process, 1);
  EXPECT_EQ(found[0].locations[1].line, 9);
  EXPECT_EQ(found[0].locations[1].process, 3);
}

TEST(MpiPutCollisions, SameDataOrDisjointBytesAreNoCollision) {
  const auto a = bytes({1, 2, 3, 4}), same = bytes({3, 4, 5, 6}), other = bytes({7, 7});
  // Bytes 1002..1003 hold 3, 4 in both; 1004 is just past the first put.
  const std::vector<LandingWrite> puts{
      {1000, 4, a.data(), 0, &kLine7}, {1002, 4, same.data(), 1, &kLine9}, {1006, 2, other.data(), 2, &kLine9}};
  EXPECT_TRUE(put_collisions(puts, 0, 1).empty());
}

TEST(MpiPutCollisions, OneFindingPerPairOfSitesAndOneProcessTwoCalls) {
  std::vector<std::vector<std::byte>> data;
  for (int s = 0; s < 8; ++s) data.push_back(bytes({s, s, s, s}));
  std::vector<LandingWrite> puts;
  for (int s = 0; s < 8; ++s) puts.push_back({64, 4, data[static_cast<std::size_t>(s)].data(), s, &kLine7});
  EXPECT_EQ(put_collisions(puts, 0, 1).size(), 1u);  // 28 colliding pairs, one pair of sites
  const std::vector<LandingWrite> own{{64, 4, data[1].data(), 2, &kLine7}, {64, 4, data[2].data(), 2, &kLine9}};
  const auto found = put_collisions(own, 2, 1);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].message.rfind("process 2's bsp_put and bsp_put write", 0), 0u) << found[0].message;
  EXPECT_EQ(found[0].processes, std::vector<int>{2});
}

const SiteRecord kGet5 = record_of(CallSite{"gather.c", 5, "bsp_get"});
const SiteRecord kGet6 = record_of(CallSite{"gather.c", 6, "bsp_get"});

TEST(MpiPutCollisions, AGetAndAPutOnTheGetterSayThePutLandsLast) {
  const auto got = bytes({1, 1, 1, 1}), put = bytes({2, 2, 2, 2});
  // Rank 2's get lands first (BSPlib: every get before any put), then rank 0's put on rank 2.
  const std::vector<LandingWrite> writes{{4096, 4, got.data(), 2, &kGet5}, {4096, 4, put.data(), 0, &kLine7}};
  const auto found = put_collisions(writes, 2, 3);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rule, "put-collision");
  EXPECT_EQ(found[0].message,
            "processes 0, 2 write different data to the same 4 bytes on process 2 in one superstep: the bsp_get's "
            "data is written first and the bsp_put's data lands last, as BSPlib specifies");
  EXPECT_EQ(found[0].processes, (std::vector<int>{0, 2}));
  ASSERT_EQ(found[0].locations.size(), 2u);
  EXPECT_EQ(found[0].locations[0].line, 5);
  EXPECT_EQ(found[0].locations[0].call, "bsp_get");
  EXPECT_EQ(found[0].locations[0].process, 2);
  EXPECT_EQ(found[0].locations[1].line, 7);
  EXPECT_EQ(found[0].locations[1].process, 0);
}

TEST(MpiPutCollisions, TwoGetsIntoOneBufferAreOneProcessTwoCalls) {
  const auto a = bytes({1, 2}), b = bytes({3, 4}), same = bytes({1, 2});
  const std::vector<LandingWrite> writes{{64, 2, a.data(), 1, &kGet5}, {64, 2, b.data(), 1, &kGet6}};
  const auto found = put_collisions(writes, 1, 2);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].message.rfind("process 1's bsp_get and bsp_get write different data to the same 2 bytes on "
                                   "process 1 in one superstep: which bsp_get's data lands last depends on the run",
                                   0),
            0u)
      << found[0].message;
  EXPECT_EQ(found[0].processes, std::vector<int>{1});
  // Gets of the same bytes that read the same data do not collide.
  const std::vector<LandingWrite> agree{{64, 2, a.data(), 1, &kGet5}, {64, 2, same.data(), 1, &kGet6}};
  EXPECT_TRUE(put_collisions(agree, 1, 2).empty());
}

TEST(MpiPutSites, ASiteTravelsOncePerTarget) {
  PutSites source(3), target(3);
  const CallSite line7{"gather.c", 7, "bsp_put"}, line9{"gather.c", 9, "bsp_put"};
  std::vector<std::byte> to1, to2;
  const std::uint32_t a = source.announce(line7, 1, to1, std::uint8_t{4});
  const std::size_t defined = to1.size();
  EXPECT_GT(defined, 0u);
  EXPECT_EQ(source.announce(line7, 1, to1, std::uint8_t{4}), a);
  EXPECT_EQ(to1.size(), defined);  // known at rank 1 already
  EXPECT_EQ(source.announce(line7, 2, to2, std::uint8_t{4}), a);
  EXPECT_EQ(to2.size(), defined);  // but new to rank 2
  const std::uint32_t b = source.announce(line9, 1, to1, std::uint8_t{4});
  EXPECT_NE(a, b);
  Reader in(to1);
  while (!in.done()) {
    EXPECT_EQ(in.value<std::uint8_t>(), 4);
    target.define(0, in);
  }
  ASSERT_NE(target.site(0, b), nullptr);
  EXPECT_STREQ(target.site(0, b)->file, "gather.c");
  EXPECT_EQ(target.site(0, b)->line, 9);
  EXPECT_EQ(target.site(0, a)->line, 7);
  EXPECT_EQ(target.site(1, a), nullptr);  // ids are per source rank
}

}  // namespace
