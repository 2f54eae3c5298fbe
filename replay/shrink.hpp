// shrink.hpp: reducing a failing run's scheduling choices towards the default schedule while it
// still fails (delta debugging, Zeller and Hildebrandt 2002). The run itself is the caller's:
// `bsp-check shrink` runs the program (tools/commands/shrink_command.cpp), bspcheck::shrink runs an SPMD
// function in-process (engine/host/exploration_api.cpp); both call this.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace bspcheck::trace {

struct ShrinkOutcome {
  std::vector<std::size_t> kept;  // indices of the choices that matter, ascending
  std::size_t runs = 0;           // calls of `fails`
  bool stopped_at_limit = false;  // max_runs ended it before a minimum was reached
};

// The smallest set of the n choices (as indices) found to keep `fails` true, every other
// choice taking its default; `fails(kept)` runs once with those choices. Tries the empty set
// first (a failure that needs no choice), then removes chunks of halving size while the failure
// stays, within max_runs calls.
ShrinkOutcome shrink_choices(std::size_t n, const std::function<bool(const std::vector<std::size_t>&)>& fails,
                             std::size_t max_runs);

}  // namespace bspcheck::trace
