// in_memory_guide.hpp: a guide given in memory, for the in-process searches
// (engine/host/exploration_api.cpp): the script and the log of offered choices stay in memory instead
// of the files Options::guide_file and guide_log name. A search passes it to each run it makes
// (rt::run_in_process, engine/host/entry_points.hpp), which hands it through the World to
// TracedSchedule (engine/core/traced_schedule.cpp).
#pragma once

#include <vector>

#include "replay/choice_script.hpp"

namespace bspcheck::rt {

// The run follows `script` (as Options::guide_file would); with a log it explores, appending each
// choice it is offered to *log (as Options::guide_log would), with no file written or read.
struct GuideInMemory {
  trace::ChoiceScript script;
  std::vector<trace::OfferedChoice>* log = nullptr;
};

}  // namespace bspcheck::rt
