// coverage_search.hpp: coverage-guided random search over the choices an exploring run is
// offered (AFL's loop, for BSP schedules). Each run reports the distinct (superstep, choice
// kind, outcome class) tuples it produced (runtime/scheduling/coverage_map.hpp); a run that adds tuples
// joins the corpus, and later runs are mostly mutants of corpus entries, of two sorts:
//   - a walk: each entry in turn (oldest first) has every one of its choice points changed
//     alone, in a seeded order, once per alternative value (round r gives each point its r-th
//     alternative), as AFL's deterministic stage flips each bit of a new input once;
//   - havoc: the entry's own choices with one to four of them changed at random.
// The rest are fresh runs (uniform choices), and the first run is the default schedule.
//
// Why it beats uniform random on rare bugs: a bug that needs most of a run's choices to go one
// way and one to go the other (one collision in superstep 57 of 100 going the other way, an hp
// write landing between two given reads) has a tiny probability under uniform choices, but it
// is one change of the default schedule, whose run is always in the corpus: the default's walk
// reaches it within as many runs as the run has choice points (times the alternatives).
//
// The runs are the caller's, as with BoundedSearch: `bsp-check explore --strategy coverage`
// runs the program (tools/commands/explore_command.cpp), bspcheck::coverage_search an SPMD function.
// Everything is drawn from the search's seed: the same seed and program give the same runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <optional>
#include <unordered_set>
#include <vector>

#include "replay/choice_script.hpp"
#include "runtime/scheduling/coverage_map.hpp"
#include "runtime/base/rng.hpp"

namespace bspcheck::trace {

class CoverageSearch {
 public:
  struct Schedule {
    std::vector<unsigned> kinds, values;  // the first choice points; the rest: default or random
    bool random_tail = false;             // choices past the script drawn from tail_seed
    std::uint64_t tail_seed = 0;
    std::string origin;  // "default", "fresh", "walk of run 3", "mutant of run 12 (2 changes)"
  };

  explicit CoverageSearch(std::uint64_t seed) : rng_(seed) {}

  // The next schedule to run (there is always one: the search ends when its caller stops).
  Schedule next();
  // What a run of s was offered (its choice log): returns how many tuples it added.
  std::size_t ran(const Schedule& s, const std::vector<OfferedChoice>& offered);

  std::size_t tuples() const { return seen_.size(); }  // distinct tuples reached so far
  const rt::CoverageMap& coverage() const { return seen_; }
  std::size_t corpus_size() const { return corpus_.size(); }
  std::size_t runs() const { return runs_; }

  // The script that makes a run follow s (replay/guided_scheduler.hpp follows it).
  static ChoiceScript script(const Schedule& s);
  // A key of the tuple of one offered choice: its superstep, kind and outcome class (the
  // default, the first option, or another one; rt::outcome_class).
  static std::uint64_t tuple(const OfferedChoice& c);

 private:
  struct Entry {
    std::vector<OfferedChoice> offered;
    std::size_t run = 0;       // which run it was, for Schedule::origin
    std::uint64_t picked = 0;  // how often it was mutated: fresh entries get more turns
  };
  // The walk under way: one corpus entry's single changes, round by round.
  struct Walk {
    std::size_t entry = 0;
    std::vector<std::uint32_t> order;  // its choice points with alternatives, shuffled
    std::size_t pos = 0;               // next in order
    std::uint32_t round = 0;           // the alternative each point takes in this round
    std::uint32_t rounds = 0;          // the most alternatives of any point
    std::uint64_t salt = 0;            // which alternative comes first, per point
  };
  Schedule mutant();
  std::optional<Schedule> walk_step();
  std::size_t pick_parent();

  rt::Rng rng_;
  std::size_t runs_ = 0, handed_out_ = 0;
  rt::CoverageMap seen_;                     // tuples
  std::unordered_set<std::uint64_t> tried_;  // schedules handed out (hash of kinds and values)
  std::vector<Entry> corpus_;
  std::optional<Walk> walk_;
  std::size_t walked_ = 0;  // corpus entries whose walk has begun
};

}  // namespace bspcheck::trace
