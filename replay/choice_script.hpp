// choice_script.hpp: the files that steer a run's choices from outside, as the guided scheduler
// (guided_scheduler.hpp) reads and writes them:
//   a script: one line per choice, "KIND VALUE" or "KIND -" (the default), KIND as in traces;
//   a log (an exploring run): one line per choice offered, "KIND N VALUE SUPERSTEP", N the options.
// Shrinking (shrink.hpp) and bounded search (bounded_search.hpp) speak to runs through them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "replay/trace_format.hpp"

namespace bspcheck::trace {

// One scheduling choice of a recorded run, with where it happened.
struct RecordedChoice {
  std::uint8_t kind;
  std::uint64_t value;
  std::uint64_t superstep;
  int pid;           // the process whose call came last before the choice
  std::string call;  // that call
};

// The choices of a trace in order, each with the superstep and the call it followed.
std::vector<RecordedChoice> recorded_choices(const Reader& trace);

// What a choice kind decides, for people: "next process", "message order", ...
const char* choice_kind_text(unsigned kind);

// A script that keeps choices[i].value where keep[i], and the default elsewhere.
void write_choice_script(const std::string& path, const std::vector<RecordedChoice>& choices,
                         const std::vector<bool>& keep);

// A choice point an exploring run was offered: its kind, how many options, what it took.
struct OfferedChoice {
  unsigned kind;
  unsigned n;
  unsigned value;
  std::uint64_t superstep = 0;
};
std::vector<OfferedChoice> read_choice_log(const std::string& path);

}  // namespace bspcheck::trace
