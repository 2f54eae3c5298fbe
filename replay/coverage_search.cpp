#include "replay/coverage_search.hpp"

#include <fstream>

#include "runtime/hash.hpp"

namespace bspcheck::trace {

namespace {

template <typename T>
void add_word(rt::Fnv1a64& h, T v) {
  h.add(&v, sizeof v);
}

std::uint64_t schedule_hash(const CoverageSearch::Schedule& s) {
  rt::Fnv1a64 h;
  for (std::size_t i = 0; i < s.values.size(); ++i) {
    add_word(h, s.kinds[i]);
    add_word(h, s.values[i]);
  }
  add_word(h, s.random_tail);
  add_word(h, s.tail_seed);
  return h.value();
}

}  // namespace

std::uint64_t CoverageSearch::tuple(const OfferedChoice& c) {
  // 0: the default (issue order kept, the last writer wins, hp "not yet"); 1: the first option
  // (the element moved to the end of a Fisher-Yates step is the first one); 2: another one.
  const unsigned outcome = c.value + 1 == c.n ? 0 : c.value == 0 ? 1 : 2;
  rt::Fnv1a64 h;
  add_word(h, c.superstep);
  add_word(h, c.kind);
  add_word(h, outcome);
  return h.value();
}

std::size_t CoverageSearch::pick_parent() {
  // Two entries drawn, the one mutated less often wins: new entries, which just reached
  // something new, get most of the turns, and no entry starves (AFL's energy, simply).
  const auto n = static_cast<std::uint32_t>(corpus_.size());
  const std::size_t a = rng_.below(n), b = rng_.below(n);
  return corpus_[a].picked <= corpus_[b].picked ? a : b;
}

CoverageSearch::Schedule CoverageSearch::mutant() {
  Entry& parent = corpus_[pick_parent()];
  ++parent.picked;
  Schedule s;
  for (const OfferedChoice& c : parent.offered) {
    s.kinds.push_back(c.kind);
    s.values.push_back(c.value);
  }
  std::vector<std::size_t> open;  // the points with something else to choose
  for (std::size_t i = 0; i < parent.offered.size(); ++i)
    if (parent.offered[i].n >= 2) open.push_back(i);
  // Mostly one change, sometimes up to four: small steps keep what the parent reached.
  std::size_t changes = 1;
  while (changes < 4 && rng_.below(4) == 0) ++changes;
  std::size_t made = 0;
  for (std::size_t k = 0; k < changes && !open.empty(); ++k, ++made) {
    // Distinct points: a second change of the same point could undo the first.
    const std::size_t at = rng_.below(static_cast<std::uint32_t>(open.size()));
    const std::size_t i = open[at];
    open[at] = open.back();
    open.pop_back();
    const unsigned n = parent.offered[i].n;
    const unsigned other = rng_.below(n - 1);  // any option but the current one
    s.values[i] = other >= s.values[i] ? other + 1 : other;
  }
  s.origin = "mutant of run " + std::to_string(parent.run + 1) + " (" + std::to_string(made) + " change" +
             (made == 1 ? ")" : "s)");
  return s;
}

CoverageSearch::Schedule CoverageSearch::next() {
  ++handed_out_;
  if (handed_out_ == 1) return Schedule{{}, {}, false, 0, "default"};
  Schedule s;
  for (int attempt = 0; attempt < 16; ++attempt) {
    if (corpus_.empty() || rng_.below(4) == 0) {
      s = Schedule{{}, {}, true, rng_.next(), "fresh"};
    } else {
      s = mutant();
    }
    if (tried_.insert(schedule_hash(s)).second) break;  // not run before
  }
  return s;
}

std::size_t CoverageSearch::ran(const Schedule&, const std::vector<OfferedChoice>& offered) {
  ++runs_;
  std::size_t added = 0;
  for (const OfferedChoice& c : offered)
    if (seen_.insert(tuple(c)).second) ++added;
  if (added) corpus_.push_back(Entry{offered, runs_ - 1, 0});
  return added;
}

ChoiceScript CoverageSearch::script(const Schedule& s) {
  ChoiceScript script;
  script.random_tail = s.random_tail;
  script.tail_seed = s.tail_seed;
  for (std::size_t i = 0; i < s.values.size(); ++i)
    script.entries.push_back({static_cast<std::uint8_t>(s.kinds[i]), true, s.values[i]});
  return script;
}

}  // namespace bspcheck::trace
