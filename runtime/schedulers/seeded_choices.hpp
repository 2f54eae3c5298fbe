// seeded_choices.hpp: the non-process choices (queue order, write order, hp timing, time, grant) drawn
// uniformly, each kind from its own stream of the seed. Shared by the strategies that differ
// only in which process runs next, so that switching strategy leaves message orders alone.
#pragma once

#include <cstdint>

#include "runtime/rng.hpp"

namespace bspcheck::rt {

class SeededChoices {
 public:
  explicit SeededChoices(std::uint64_t seed)
      : queue_(stream_for(seed, ChoiceKind::queue_order)),
        writes_(stream_for(seed, ChoiceKind::write_order)),
        hp_(stream_for(seed, ChoiceKind::hp_timing)),
        time_(stream_for(seed, ChoiceKind::time)),
        grant_(stream_for(seed, ChoiceKind::grant)) {}
  std::uint32_t choose(ChoiceKind kind, std::uint32_t n) {
    switch (kind) {
      case ChoiceKind::queue_order: return queue_.below(n);
      case ChoiceKind::write_order: return writes_.below(n);
      case ChoiceKind::hp_timing: return hp_.below(n);
      case ChoiceKind::grant: return grant_.below(n);
      default: return time_.below(n);
    }
  }

 private:
  Rng queue_, writes_, hp_, time_, grant_;
};

}  // namespace bspcheck::rt
