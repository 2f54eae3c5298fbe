// choice_script.hpp: what steers a run's choices from outside, as the guided scheduler
// (guided_scheduler.hpp) reads and writes it, in files (a program run by bsp-check) or in memory
// (in-process searches):
//   a script: one line per choice, "KIND VALUE" or "KIND -" (the default), KIND as in traces, and
//     optionally "random SEED" (the choices past its end are uniform draws from SEED);
//   a log (an exploring run): one line per choice offered, "KIND N VALUE SUPERSTEP", N the options.
// Shrinking (shrink.hpp), bounded search (bounded_search.hpp) and coverage search
// (coverage_search.hpp) speak to runs through them.
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

// A script: the choices a run should make, in order, each given or left to the default, and what
// the choices past its end take (the default, or uniform draws from tail_seed). The guided
// scheduler follows it (guided_scheduler.hpp); a program reads it from a file (Options::guide_file),
// an in-process search hands it over in memory.
struct ChoiceScript {
  struct Entry {
    std::uint8_t kind;
    bool given;  // false: the default ("KIND -")
    std::uint64_t value;
  };
  std::vector<Entry> entries;
  bool random_tail = false;  // "random SEED": choices past the end drawn from tail_seed
  std::uint64_t tail_seed = 0;

  static ChoiceScript load(const std::string& path);  // throws TraceError
  void save(const std::string& path) const;           // the form load reads
};

// A script that keeps choices[i].value where keep[i], and the default elsewhere (shrinking).
ChoiceScript keep_choices(const std::vector<RecordedChoice>& choices, const std::vector<bool>& keep);

// A choice point an exploring run was offered: its kind, how many options, what it took.
struct OfferedChoice {
  unsigned kind;
  unsigned n;
  unsigned value;
  std::uint64_t superstep = 0;
};
std::vector<OfferedChoice> read_choice_log(const std::string& path);

// "choice 3 (superstep 1): message order -> 0 of 4": the offered choice at position i (0-based)
// of an exploring run, as a deviation from the default (the last option, n - 1).
std::string deviation_text(std::size_t i, const OfferedChoice& c);
// The non-default choices a run took, one deviation_text line each: at most `limit` lines, then
// "... and N more non-default choices".
std::vector<std::string> describe_deviations(const std::vector<OfferedChoice>& offered,
                                             std::size_t limit = static_cast<std::size_t>(-1));

}  // namespace bspcheck::trace
