// bounded_search.hpp: every schedule that differs from the default one in at most `bound`
// choices, depth first (iterative context bounding, Musuvathi and Qadeer 2007, for BSP's
// choices). Only choices an exploring run is offered count: those that can change what the
// program sees. The runs are the caller's: `bsp-check explore` runs the program
// (tools/commands/explore_command.cpp), bspcheck::explore an SPMD function (engine/host/exploration_api.cpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "replay/choice_script.hpp"

namespace bspcheck::trace {

class BoundedSearch {
 public:
  // A schedule: the values of the first choice points; the rest take the default.
  struct Schedule {
    std::vector<unsigned> kinds, values;
    std::size_t deviations = 0;  // how many of them are not the default
    std::size_t next = 0;        // deviations are added at or after this choice point only
  };

  explicit BoundedSearch(std::size_t bound) : bound_(bound), todo_{Schedule{}} {}

  // The next schedule to run, or nothing when every schedule within the bound has run.
  std::optional<Schedule> next();
  // What a run of schedule s was offered (its choice log): queues the schedules with one more
  // deviation at each later point.
  void ran(const Schedule& s, const std::vector<OfferedChoice>& offered);
  // Were all schedules that can differ run (so far none was cut by the bound)?
  bool exhaustive() const { return !cut_; }

  // The script that makes a run follow s.
  static ChoiceScript script(const Schedule& s);

 private:
  std::size_t bound_;
  std::vector<Schedule> todo_;
  bool cut_ = false;
};

}  // namespace bspcheck::trace
