// scheduler.cpp: the one place that turns a Strategy into a scheduler. Each strategy lives in
// runtime/scheduling/, one file per strategy; the trace wrappers live in replay/.
#include "runtime/scheduling/scheduler.hpp"

#include "runtime/options/option_values.hpp"
#include "runtime/scheduling/pct_scheduler.hpp"
#include "runtime/scheduling/random_scheduler.hpp"
#include "runtime/scheduling/round_robin_scheduler.hpp"

namespace bspcheck::rt {

std::unique_ptr<Scheduler> make_scheduler(const Options& options) {
  switch (options.strategy) {
    case Strategy::round_robin:
      return std::make_unique<RoundRobinScheduler>(options.seed);
    case Strategy::pct:
      return std::make_unique<PctScheduler>(options.seed, options.pct_depth, options.pct_steps);
    case Strategy::random:
      break;
  }
  return std::make_unique<RandomScheduler>(options.seed);
}

}  // namespace bspcheck::rt
