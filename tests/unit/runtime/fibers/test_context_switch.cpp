// The context switch (runtime/fibers/context_switch.hpp) on its own: two contexts ping-pong through
// switch_context, the call the runtime makes at every switch point. The switch enters
// jump_fcontext without a `call` (runtime/fibers/fcontext_jump.hpp), so its asm must declare every
// register a callee may change: a value the compiler keeps in such a register across the switch
// would be overwritten by the other context's code, and these tests would see it.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "runtime/fibers/context_switch.hpp"

namespace rt = bspcheck::rt;

namespace {

struct PingPong {
  rt::ContextSlot host, a, b;
  std::vector<char> stacks = std::vector<char>(2 * 256 * 1024);
  void (*body)(PingPong&, bool is_a) = nullptr;
  bool ok_a = false, ok_b = false;

  static void entry(void* arg);
  void run(void (*f)(PingPong&, bool)) {
    body = f;
    const std::size_t size = stacks.size() / 2;
    rt::make_context(a, stacks.data() + size, size, &entry, this);
    rt::make_context(b, stacks.data() + 2 * size, size, &entry, this);
    rt::switch_context(host, a);  // a starts b; both finish by switching back here
    rt::destroy_context(a);
    rt::destroy_context(b);
  }
  void yield(bool is_a) { is_a ? rt::switch_context(a, b) : rt::switch_context(b, a); }
};

PingPong* g_game = nullptr;
bool g_a_started = false;

void PingPong::entry(void* arg) {
  auto& g = *static_cast<PingPong*>(arg);
  const bool is_a = !g_a_started;
  g_a_started = true;
  g.body(g, is_a);
  // a finishes first and resumes b, which finishes and returns to the host.
  if (is_a) rt::exit_context(g.a, g.b);
  rt::exit_context(g.b, g.host);
}

void play(void (*f)(PingPong&, bool)) {
  PingPong g;
  g_game = &g;
  g_a_started = false;
  g.run(f);
  EXPECT_TRUE(g.ok_a);
  EXPECT_TRUE(g.ok_b);
}

constexpr int kRounds = 2000;

}  // namespace

// Integer and floating-point values live across every switch, while the other context computes
// different values with the same code (and so in the same registers).
TEST(ContextSwitch, ValuesSurviveSwitches) {
  play([](PingPong& g, bool is_a) {
    const std::uint64_t salt = is_a ? 0x1234567 : 0x7654321;
    volatile std::uint64_t seed_source = salt;
    std::uint64_t i0 = seed_source, i1 = i0 * 3, i2 = i0 * 5, i3 = i0 * 7, i4 = i0 * 11, i5 = i0 * 13,
                  i6 = i0 * 17, i7 = i0 * 19, i8 = i0 * 23;
    double d0 = static_cast<double>(salt), d1 = d0 / 3, d2 = d0 / 5, d3 = d0 / 7, d4 = d0 / 11,
           d5 = d0 / 13, d6 = d0 / 17, d7 = d0 / 19, d8 = d0 / 23, d9 = d0 / 29;
    bool all_equal = true;
    for (int r = 0; r < kRounds; ++r) {
      g.yield(is_a);
      const double x = static_cast<double>(salt);
      const std::uint64_t y = salt;
      all_equal = all_equal && i0 == y && i1 == y * 3 && i2 == y * 5 && i3 == y * 7 && i4 == y * 11 &&
                  i5 == y * 13 && i6 == y * 17 && i7 == y * 19 && i8 == y * 23;
      all_equal = all_equal && d0 == x && d1 == x / 3 && d2 == x / 5 && d3 == x / 7 && d4 == x / 11 &&
                  d5 == x / 13 && d6 == x / 17 && d7 == x / 19 && d8 == x / 23 && d9 == x / 29;
      // Change them, so that they stay live in registers and differ between the contexts.
      i0 += 1; i1 += 3; i2 += 5; i3 += 7; i4 += 11; i5 += 13; i6 += 17; i7 += 19; i8 += 23;
      g.yield(is_a);
      i0 -= 1; i1 -= 3; i2 -= 5; i3 -= 7; i4 -= 11; i5 -= 13; i6 -= 17; i7 -= 19; i8 -= 23;
      d0 *= 2; d1 *= 2; d2 *= 2; d3 *= 2; d4 *= 2; d5 *= 2; d6 *= 2; d7 *= 2; d8 *= 2; d9 *= 2;
      g.yield(is_a);
      d0 /= 2; d1 /= 2; d2 /= 2; d3 /= 2; d4 /= 2; d5 /= 2; d6 /= 2; d7 /= 2; d8 /= 2; d9 /= 2;
    }
    (is_a ? g.ok_a : g.ok_b) = all_equal;
  });
}

// Each context keeps its own floating-point rounding mode (fcontext saves MXCSR and the x87
// control word per context): a BSP process changing it does not change it for the others.
TEST(ContextSwitch, RoundingModeIsPerContext) {
  const int outside = std::fegetround();
  play([](PingPong& g, bool is_a) {
    const int mine = is_a ? FE_UPWARD : FE_DOWNWARD;
    std::fesetround(mine);
    bool kept = true;
    volatile double one = 1.0, three = 3.0;
    const double up = 0.33333333333333337, down = 0.33333333333333331;
    for (int r = 0; r < 100; ++r) {
      g.yield(is_a);
      kept = kept && std::fegetround() == mine && one / three == (is_a ? up : down);
    }
    std::fesetround(FE_TONEAREST);
    (is_a ? g.ok_a : g.ok_b) = kept;
  });
  EXPECT_EQ(std::fegetround(), outside);
}

// An exception thrown after switches unwinds through the frames that switched and is caught in
// the same context, with the other context's frames untouched.
TEST(ContextSwitch, ExceptionsUnwindWithinAContext) {
  play([](PingPong& g, bool is_a) {
    int caught = 0;
    for (int r = 0; r < 200; ++r) {
      try {
        g.yield(is_a);
        if (r % 3 == (is_a ? 0 : 1)) throw std::runtime_error(is_a ? "a" : "b");
        g.yield(is_a);
      } catch (const std::runtime_error& e) {
        if (e.what()[0] == (is_a ? 'a' : 'b')) ++caught;
        g.yield(is_a);  // keep both contexts switching the same number of times
      }
    }
    (is_a ? g.ok_a : g.ok_b) = caught == 67;  // r % 3 == 0 (a) or 1 (b) for r < 200
  });
}
