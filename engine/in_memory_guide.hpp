// in_memory_guide.hpp: a guide given in memory, for the in-process searches
// (engine/exploration_api.cpp): the script and the log of offered choices stay in memory instead
// of the files Options::guide_file and guide_log name (engine/traced_schedule.cpp uses it).
#pragma once

#include <vector>

#include "replay/choice_script.hpp"
#include "replay/guided_scheduler.hpp"

namespace bspcheck::rt {

// While one lives, every run this thread starts follows its script (as Options::guide_file
// would) and explores, appending each choice it is offered to its log (as Options::guide_log
// would), with no file written or read. One at a time per thread.
class InMemoryGuide {
 public:
  InMemoryGuide(trace::GuidedScheduler::Script script, std::vector<trace::OfferedChoice>& log);
  ~InMemoryGuide();
  InMemoryGuide(const InMemoryGuide&) = delete;
  InMemoryGuide& operator=(const InMemoryGuide&) = delete;
  void set_script(trace::GuidedScheduler::Script script) { script_ = std::move(script); }

  static InMemoryGuide* current();  // the one set on this thread, if any
  const trace::GuidedScheduler::Script& script() const { return script_; }
  std::vector<trace::OfferedChoice>& log() { return log_; }

 private:
  trace::GuidedScheduler::Script script_;
  std::vector<trace::OfferedChoice>& log_;
};

}  // namespace bspcheck::rt
