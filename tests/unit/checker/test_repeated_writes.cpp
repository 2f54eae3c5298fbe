// checker/repeated_writes: a superstep's writes are never shown disjoint when two overlap, and a
// small one's are shown disjoint exactly when none do, whether the answer comes from comparing
// every pair or from the last disjoint superstep kept, however the schedule interleaves the
// processes' calls.
#include "checker/repeated_writes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

using bspcheck::checker::BufferedWrite;
using bspcheck::checker::HpRecord;
using bspcheck::checker::RepeatedWrites;
using bspcheck::checker::WriteSet;

namespace {

std::vector<std::byte> memory(32768);  // 16 bytes a write, past kKept

struct Write {
  std::size_t at;
  std::uint32_t nbytes;
  int writer;
  bool hp;
};

struct Superstep {
  std::vector<BufferedWrite> gets, puts;
  std::vector<HpRecord> hp;
  explicit Superstep(const std::vector<Write>& ws) {
    for (const Write& w : ws) {
      if (w.hp) {
        HpRecord h{};
        h.dst = memory.data() + w.at;
        h.nbytes = w.nbytes;
        h.caller = w.writer;
        hp.push_back(h);
      } else {
        puts.push_back({memory.data() + w.at, 0, w.nbytes, w.writer, 0, {}, "bsp_put"});
      }
    }
  }
  WriteSet set() const { return WriteSet{gets, puts, memory.data()}; }
};

bool overlap_by_definition(const std::vector<Write>& ws) {
  for (std::size_t a = 0; a < ws.size(); ++a)
    for (std::size_t b = 0; b < a; ++b)
      if (ws[a].nbytes && ws[b].nbytes && ws[a].at < ws[b].at + ws[b].nbytes && ws[b].at < ws[a].at + ws[a].nbytes)
        return true;
  return false;
}

// The same calls in another interleaving: each writer's own calls keep their order.
std::vector<Write> interleaved(const std::vector<Write>& ws, std::mt19937& rng) {
  std::vector<int> owners;
  for (const Write& w : ws) owners.push_back(w.writer);
  std::shuffle(owners.begin(), owners.end(), rng);
  std::vector<Write> out;
  std::map<int, std::size_t> next_of;  // per writer: where its next call is looked for
  for (const int writer : owners) {
    std::size_t& i = next_of[writer];
    while (ws[i].writer != writer) ++i;
    out.push_back(ws[i++]);
  }
  return out;
}

// What check_writes makes of a superstep: the answer of disjoint(), or else its own ordering's,
// which it reports back when the writes are disjoint. Checks that disjoint() never calls
// overlapping writes disjoint, and that it decides every superstep small enough to compare
// pair by pair.
struct Decider {
  RepeatedWrites repeated;
  int kept_answers = 0;        // supersteps past kPairwise answered by the kept one
  int large_kept_answers = 0;  // and of those, the ones of more than 256 writes
  bool operator()(const std::vector<Write>& ws) {
    const Superstep s(ws);
    const bool truth = !overlap_by_definition(ws);
    const bool shown = repeated.disjoint(s.set(), s.hp);
    EXPECT_TRUE(!shown || truth) << "overlapping writes shown disjoint";
    if (ws.size() <= RepeatedWrites::kPairwise) {
      EXPECT_EQ(shown, truth);
    }
    kept_answers += shown && ws.size() > RepeatedWrites::kPairwise;
    large_kept_answers += shown && ws.size() > 256;
    if (!shown && truth) repeated.ordered_disjoint();
    return truth;
  }
};

TEST(RepeatedWrites, AgreesWithEveryPairAcrossRepeatedAndChangedSupersteps) {
  std::mt19937 rng(47);
  Decider decide;
  for (int round = 0; round < 4000 && !testing::Test::HasFailure(); ++round) {
    const int writers = 1 + static_cast<int>(rng() % 6);
    const int base = rng() % 4 == 0 ? 100 : rng() % 4 == 0 ? 2000 : 0;  // past the direct table too
    const std::size_t n = rng() % 3 == 0     ? rng() % 40
                          : rng() % 60 == 0  ? 300 + rng() % 600
                          : rng() % 300 == 0 ? RepeatedWrites::kKept + 1
                                             : rng() % (RepeatedWrites::kPairwise + 1);
    // Disjoint slots of 16 bytes, most writes inside their own: overlaps come from the few that
    // reach into the next slot (in every other large superstep none does, so that it is kept).
    const bool may_reach = n <= 40 || rng() % 2 == 0;
    std::vector<Write> ws;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t size = may_reach && rng() % 12 == 0 ? 20 : 1 + rng() % 16;
      ws.push_back({16 * i + (size > 16 ? 0 : rng() % (17 - size)), rng() % 20 == 0 ? 0 : size,
                    base + static_cast<int>(rng() % static_cast<unsigned>(writers)), rng() % 5 == 0});
    }
    SCOPED_TRACE("round " + std::to_string(round));
    // The superstep, then the same calls in other orders, then one range moved or grown.
    for (int again = 0; again < 4; ++again) decide(again == 0 ? ws : interleaved(ws, rng));
    if (n < 2) continue;
    std::vector<Write> changed = ws;
    Write& w = changed[rng() % n];
    const std::size_t end = w.at + w.nbytes;
    switch (rng() % 3) {
      case 0:
        w.at = changed[rng() % n].at;
        break;  // moved onto another's start
      case 1:
        w.nbytes += 8;
        break;  // grown at its end
      default:  // grown at its start, the same end
        w.at = w.at >= 8 ? w.at - 8 : 0;
        w.nbytes = static_cast<std::uint32_t>(end - w.at);
    }
    decide(changed);
    // The same ranges, one write taken by a process of its own: the same answer (disjointness
    // is the ranges'), reached another way.
    std::vector<Write> moved = ws;
    moved[rng() % n].writer = base + writers;
    decide(moved);
    // One write made a copy of another's range, by any process: two writes of one range.
    std::vector<Write> copied = ws;
    const Write& from = ws[rng() % n];
    copied[rng() % n] = {from.at, from.nbytes, ws[rng() % n].writer, false};
    decide(copied);
    decide(ws);  // and the superstep itself again, kept anew
  }
  // Enough repeated disjoint supersteps past kPairwise for the kept one to answer many (a kept
  // superstep that matched a changed range fails the changed rounds above).
  EXPECT_GT(decide.kept_answers, 300);
  EXPECT_GT(decide.large_kept_answers, 20);
}

TEST(RepeatedWrites, ALargeSuperstepIsLeftToTheOrderingUntilKept) {
  RepeatedWrites repeated;
  std::vector<Write> ws;
  for (std::size_t i = 0; i <= RepeatedWrites::kPairwise; ++i)
    ws.push_back({16 * i, 8, static_cast<int>(i % 3), false});
  const Superstep s(ws);
  EXPECT_FALSE(repeated.disjoint(s.set(), s.hp));
  repeated.ordered_disjoint();
  EXPECT_TRUE(repeated.disjoint(s.set(), s.hp));
}

}  // namespace
