#include "replay/coverage_search.hpp"

#include <algorithm>

#include "runtime/base/hash.hpp"

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
  const unsigned outcome = static_cast<unsigned>(rt::outcome_class(c.n, c.value));
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

std::optional<CoverageSearch::Schedule> CoverageSearch::walk_step() {
  for (;;) {
    if (!walk_) {
      if (walked_ >= corpus_.size()) return std::nullopt;  // every entry walked: havoc only
      Walk w;
      w.entry = walked_++;
      const std::vector<OfferedChoice>& offered = corpus_[w.entry].offered;
      for (std::size_t i = 0; i < offered.size(); ++i)
        if (offered[i].n >= 2) {
          w.order.push_back(static_cast<std::uint32_t>(i));
          w.rounds = std::max(w.rounds, offered[i].n - 1);
        }
      for (std::size_t i = w.order.size(); i > 1; --i)
        std::swap(w.order[i - 1], w.order[rng_.below(static_cast<std::uint32_t>(i))]);
      w.salt = rng_.next();
      walk_ = std::move(w);
    }
    Walk& w = *walk_;
    const Entry& parent = corpus_[w.entry];
    while (w.round < w.rounds) {
      while (w.pos < w.order.size()) {
        const std::uint32_t i = w.order[w.pos++];
        const OfferedChoice& c = parent.offered[i];
        const std::uint32_t alternatives = c.n - 1;  // every option but the one the parent took
        if (w.round >= alternatives) continue;
        std::uint64_t x = w.salt ^ i;
        const auto a = static_cast<std::uint32_t>((rt::Rng::splitmix(x) % alternatives + w.round) % alternatives);
        Schedule s;
        for (const OfferedChoice& o : parent.offered) {
          s.kinds.push_back(o.kind);
          s.values.push_back(o.value);
        }
        s.values[i] = a >= c.value ? a + 1 : a;
        if (!tried_.insert(schedule_hash(s)).second) continue;  // run before (as another's mutant)
        s.origin = "walk of run " + std::to_string(parent.run + 1) + ", choice " + std::to_string(i + 1);
        return s;
      }
      ++w.round;
      w.pos = 0;
    }
    walk_.reset();
  }
}

CoverageSearch::Schedule CoverageSearch::next() {
  ++handed_out_;
  if (handed_out_ == 1) return Schedule{{}, {}, false, 0, "default"};
  Schedule s;
  for (int attempt = 0; attempt < 16; ++attempt) {
    // A quarter fresh runs, so that the search is never far behind uniform random; five eighths
    // walks while an entry has single changes left to try; the rest (and all once every entry
    // is walked) havoc.
    const std::uint32_t turn = rng_.below(8);
    if (corpus_.empty() || turn < 2) {
      s = Schedule{{}, {}, true, rng_.next(), "fresh"};
    } else if (turn < 7) {
      if (std::optional<Schedule> w = walk_step()) return std::move(*w);  // distinct by construction
      s = mutant();
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
    if (seen_.add(c.superstep, c.kind, c.n, c.value)) ++added;
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
