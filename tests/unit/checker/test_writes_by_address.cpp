// checker/writes_by_address: a superstep's writes in one total order (first address, size, index),
// however they are reached: by merging each writer's runs, by sorting, or by counting the writes
// at each address when they are packed into a small span.
#include "checker/writes_by_address.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

using bspcheck::checker::BufferedWrite;
using bspcheck::checker::HpRecord;
using bspcheck::checker::Interval;
using bspcheck::checker::kHpBit;
using bspcheck::checker::WritesByAddress;
using bspcheck::checker::WriteSet;

namespace {

std::vector<std::byte> memory(1 << 20);  // the writes' destinations, and their payloads' bytes

struct Superstep {
  std::vector<BufferedWrite> gets, puts;
  std::vector<HpRecord> hp;
  WriteSet set() const { return WriteSet{gets, puts, memory.data()}; }
};

// `n` writes by `writers` processes into `span` bytes: each writer's in ascending runs of `run`
// writes (as a loop over an area writes them), sizes from 1 to max_size, some of them hp.
Superstep random_superstep(std::mt19937& rng, int n, int writers, std::size_t span, int run, std::uint32_t max_size) {
  Superstep s;
  std::vector<std::size_t> next(static_cast<std::size_t>(writers), 0);
  for (int i = 0; i < n; ++i) {
    const int writer = static_cast<int>(rng() % static_cast<unsigned>(writers));
    std::size_t& at = next[static_cast<std::size_t>(writer)];
    if (rng() % static_cast<unsigned>(run) == 0) at = rng() % span;  // a new run starts
    const std::uint32_t size = 1 + static_cast<std::uint32_t>(rng() % max_size);
    std::byte* dst = memory.data() + (at % span);
    at += 1 + rng() % 8;
    if (rng() % 8 == 0) {
      HpRecord h{};
      h.src = memory.data();
      h.dst = dst;
      h.nbytes = rng() % 16 == 0 ? 0 : size;  // a write of 0 bytes is none
      h.caller = writer;
      s.hp.push_back(h);
    } else {
      (rng() % 4 == 0 ? s.gets : s.puts).push_back({dst, rng() % 1024, size, writer, 0, {}, "bsp_put"});
    }
  }
  return s;
}

// The order by definition: every write of a non-zero size, sorted by (first address, size, index).
std::vector<Interval> expected_order(const Superstep& s) {
  std::vector<Interval> v;
  std::uint32_t index = 0;
  for (const auto* group : {&s.gets, &s.puts})
    for (const BufferedWrite& w : *group) {
      if (w.nbytes) v.push_back({reinterpret_cast<std::uintptr_t>(w.dst), w.nbytes, index, 0});
      ++index;
    }
  for (std::size_t i = 0; i < s.hp.size(); ++i)
    if (s.hp[i].nbytes)
      v.push_back(
          {reinterpret_cast<std::uintptr_t>(s.hp[i].dst), s.hp[i].nbytes, static_cast<std::uint32_t>(i) | kHpBit, 0});
  std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) {
    if (a.lo != b.lo) return a.lo < b.lo;
    return a.nbytes != b.nbytes ? a.nbytes < b.nbytes : a.tagged < b.tagged;
  });
  if (v.size() < 2) v.clear();
  return v;
}

void expect_order(WritesByAddress& by_address, const Superstep& s, const std::string& what) {
  const std::vector<Interval> want = expected_order(s);
  const std::span<const Interval> got = by_address.order(s.set(), s.hp);
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got[i].lo, want[i].lo) << what << ", write " << i;
    ASSERT_EQ(got[i].nbytes, want[i].nbytes) << what << ", write " << i;
    ASSERT_EQ(got[i].tagged, want[i].tagged) << what << ", write " << i;
  }
}

}  // namespace

// Packed writes (a span of at most twice their number: counted), spread ones (merged or sorted),
// long and short runs, one writer and many, the same buffers reused from one superstep to the next.
TEST(WritesByAddress, EveryWayOfOrderingGivesTheOneTotalOrder) {
  std::mt19937 rng(7);
  WritesByAddress by_address;
  for (int round = 0; round < 400; ++round) {
    const int n = 1 + static_cast<int>(rng() % 3000);
    const int writers = 1 + static_cast<int>(rng() % 9);
    const std::size_t span = round % 2 ? 1 + rng() % (static_cast<unsigned>(n)) : 1 + rng() % memory.size() / 2;
    const int run = 1 + static_cast<int>(rng() % 500);
    const std::uint32_t max_size = round % 3 ? 16 : 3;  // small sizes: many writes share a first address and size
    const Superstep s = random_superstep(rng, n, writers, span, run, max_size);
    expect_order(
        by_address, s,
        "round " + std::to_string(round) + " (" + std::to_string(n) + " writes in " + std::to_string(span) + " bytes)");
  }
}

// The partial overlaps of bench/bench_checks.cpp: each writer's puts walk one area again and again.
TEST(WritesByAddress, AreasWrittenOverAndOverAreOrdered) {
  Superstep s;
  for (int writer = 0; writer < 4; ++writer)
    for (int i = 0; i < 20000; ++i)
      s.puts.push_back({memory.data() + writer * 8200 + (i % 1024) * 8, 0, 16, writer, 0, {}, "bsp_put"});
  WritesByAddress by_address;
  expect_order(by_address, s, "overlapping partially");
}
