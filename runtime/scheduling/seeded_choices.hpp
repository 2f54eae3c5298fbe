// seeded_choices.hpp: the non-process choices (queue order, write order, hp timing, time, grant) drawn
// uniformly, each kind from its own stream of the seed. Shared by the strategies that differ
// only in which process runs next, so that switching strategy leaves message orders alone.
#pragma once

#include <cstdint>

#include "runtime/base/rng.hpp"

namespace bspcheck::rt {

class SeededChoices {
 public:
  explicit SeededChoices(std::uint64_t seed)
      : queue_(stream_for(seed, ChoiceKind::queue_order)),
        writes_(stream_for(seed, ChoiceKind::write_order)),
        hp_(stream_for(seed, ChoiceKind::hp_timing)),
        time_(stream_for(seed, ChoiceKind::time)),
        grant_(stream_for(seed, ChoiceKind::grant)) {}
  std::uint32_t choose(ChoiceKind kind, std::uint32_t n) { return stream(kind).below(n); }
  // Scheduler::choose_shuffle's draws, from the one stream, inline.
  void choose_shuffle(ChoiceKind kind, std::uint32_t n, std::uint32_t* out) {
    Rng& r = stream(kind);
    for (std::uint32_t i = n; i > 1; --i) *out++ = r.below(i);
  }

 private:
  Rng& stream(ChoiceKind kind) {
    switch (kind) {
      case ChoiceKind::queue_order:
        return queue_;
      case ChoiceKind::write_order:
        return writes_;
      case ChoiceKind::hp_timing:
        return hp_;
      case ChoiceKind::grant:
        return grant_;
      default:
        return time_;
    }
  }
  Rng queue_, writes_, hp_, time_, grant_;
};

}  // namespace bspcheck::rt
