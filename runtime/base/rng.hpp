// rng.hpp: the only source of randomness in the runtime. Every nondeterministic choice BSPlib
// permits is drawn from a stream derived from the run's 64-bit seed, one stream per kind of
// choice, so that (for example) a program calling bsp_time more often does not perturb the
// message order, and a trace can later name the kind of every choice.
#pragma once

#include <cstdint>

namespace bspcheck::rt {

// xoshiro256** seeded through splitmix64: fast, small, and of ample quality for schedules.
class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) { reseed(seed); }

  void reseed(std::uint64_t seed) {
    for (auto& w : s_) w = splitmix(seed);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, n) by Lemire's multiply-shift; the tiny bias for n near 2^32 is irrelevant
  // for scheduling and keeps the draw to one multiplication.
  std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }

  static std::uint64_t splitmix(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

// The kinds of choice, each with its own stream (design.md, "sources of nondeterminism"): the one
// table of their numbers (traces and choice scripts hold them; never renumber one) and names.
//   X(ENUMERATOR, NUMBER, TEXT: what it decides, EVENT: the choice as one event of a trace)
#define BSPCHECK_CHOICE_KINDS(X)                                           \
  X(next_process, 1, "next process", "next-process choice")                \
  X(queue_order, 2, "message order", "message-order choice")               \
  X(write_order, 3, "write order", "write-order choice")                   \
  X(hp_timing, 4, "hp timing", "hp-timing choice")                         \
  X(time, 5, "time", "time choice")                                        \
  /* how many processes bsp_begin grants (with grant_fewer; BSPlib 2.1) */ \
  X(grant, 6, "processes granted", "grant choice")

enum class ChoiceKind : std::uint64_t {
#define BSPCHECK_CHOICE_KIND_ENUM(NAME, NUMBER, TEXT, EVENT) NAME = NUMBER,
  BSPCHECK_CHOICE_KINDS(BSPCHECK_CHOICE_KIND_ENUM)
#undef BSPCHECK_CHOICE_KIND_ENUM
};

struct ChoiceKindInfo {
  ChoiceKind kind;
  const char* text;   // "message order": what the choice decides, for people
  const char* event;  // "message-order choice": the choice as an event of a run
};
inline constexpr ChoiceKindInfo kChoiceKinds[] = {
#define BSPCHECK_CHOICE_KIND_ROW(NAME, NUMBER, TEXT, EVENT) {ChoiceKind::NAME, TEXT, EVENT},
    BSPCHECK_CHOICE_KINDS(BSPCHECK_CHOICE_KIND_ROW)
#undef BSPCHECK_CHOICE_KIND_ROW
};

// The row of a kind's number (as traces and scripts hold it), or nullptr for no kind.
constexpr const ChoiceKindInfo* choice_kind_info(std::uint64_t number) {
  for (const ChoiceKindInfo& k : kChoiceKinds)
    if (static_cast<std::uint64_t>(k.kind) == number) return &k;
  return nullptr;
}
// "message order" for 2; "choice" for a number that is no kind.
constexpr const char* choice_kind_text(std::uint64_t number) {
  const ChoiceKindInfo* k = choice_kind_info(number);
  return k ? k->text : "choice";
}
// "message-order choice" for 2; "choice" for a number that is no kind.
constexpr const char* choice_event_text(std::uint64_t number) {
  const ChoiceKindInfo* k = choice_kind_info(number);
  return k ? k->event : "choice";
}

inline Rng stream_for(std::uint64_t seed, ChoiceKind kind) {
  std::uint64_t x = seed ^ (static_cast<std::uint64_t>(kind) * 0xd1b54a32d192ed03ULL);
  return Rng(Rng::splitmix(x));
}

}  // namespace bspcheck::rt
