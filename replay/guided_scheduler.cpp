#include "replay/guided_scheduler.hpp"

#include <algorithm>
#include <fstream>

namespace bspcheck::trace {

GuidedScheduler::Script GuidedScheduler::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw TraceError(path + ": cannot read the choice script");
  Script script;
  std::string kind, value;
  auto number = [&](const std::string& text) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 20)
      throw TraceError(path + ": bad number '" + text + "' in the choice script");
    try {
      return std::stoull(text);
    } catch (const std::out_of_range&) {
      throw TraceError(path + ": number '" + text + "' out of range in the choice script");
    }
  };
  while (in >> kind >> value) {
    if (kind == "random") {
      script.random_tail = true;
      script.tail_seed = number(value);
      continue;
    }
    const std::uint64_t k = number(kind);
    if (k < 1 || k > 6) throw TraceError(path + ": bad choice kind " + kind);
    Entry e{static_cast<std::uint8_t>(k), value != "-", 0};
    if (e.given) e.value = number(value);
    script.entries.push_back(e);
  }
  return script;
}

GuidedScheduler::GuidedScheduler(Script script, const std::string& log_path)
    : script_(std::move(script.entries)), random_tail_(script.random_tail), tail_rng_(script.tail_seed) {
  if (!log_path.empty()) {
    log_ = std::fopen(log_path.c_str(), "w");
    if (!log_) throw TraceError(log_path + ": cannot write the choice log");
  }
}

GuidedScheduler::GuidedScheduler(Script script, std::vector<OfferedChoice>& log)
    : script_(std::move(script.entries)),
      memory_log_(&log),
      random_tail_(script.random_tail),
      tail_rng_(script.tail_seed) {}

GuidedScheduler::~GuidedScheduler() {
  if (log_) std::fclose(log_);
}

std::uint32_t GuidedScheduler::logged(std::uint8_t kind, std::uint32_t n, std::uint32_t value) {
  if (memory_log_) memory_log_->push_back(OfferedChoice{kind, n, value, superstep_});
  if (log_) {
    std::fprintf(log_, "%u %u %u %llu\n", static_cast<unsigned>(kind), n, value,
                 static_cast<unsigned long long>(superstep_));
    std::fflush(log_);  // a run that crashes still tells what it chose
  }
  return value;
}

std::uint32_t GuidedScheduler::tail(std::uint32_t n, bool past_end) {
  // n - 1 leaves a Fisher-Yates step where it is (so queues and writes keep their issue order)
  // and, for hp timing's "now?" (n = 2), says "not yet": unbuffered operations land at the barrier.
  if (!random_tail_ || !past_end) return n - 1;
  return tail_rng_.below(n);
}

const GuidedScheduler::Entry* GuidedScheduler::next(std::uint8_t kind) {
  if (pos_ >= script_.size()) return nullptr;
  const Entry* e = &script_[pos_++];
  return e->given && e->kind == kind ? e : nullptr;
}

int GuidedScheduler::next_process(const rt::RunnableSet& runnable, int current) {
  if (exploring()) {
    // Interleaving is not explored: the default, not offered, not logged. The processes run in
    // pid order in every superstep (when all can run, pid 0 first; then each on until it
    // blocks), so that the issue order under the explored orders is the same in every
    // superstep: "the default" then means the same thing in each, and a bug that needs one
    // superstep to go differently from all others is one deviation away from the default.
    if (static_cast<int>(runnable.list.size()) == runnable.nprocs()) return 0;
    if (runnable.contains(current)) return current;
    return *std::min_element(runnable.list.begin(), runnable.list.end());
  }
  if (const Entry* e = next(static_cast<std::uint8_t>(rt::ChoiceKind::next_process)))
    if (e->value < static_cast<std::uint64_t>(runnable.nprocs()) && runnable.contains(static_cast<int>(e->value)))
      return static_cast<int>(e->value);
  if (runnable.contains(current)) return current;
  return *std::min_element(runnable.list.begin(), runnable.list.end());
}

std::uint32_t GuidedScheduler::choose(rt::ChoiceKind kind, std::uint32_t n) {
  if (exploring() && kind == rt::ChoiceKind::time) return n - 1;
  const auto k = static_cast<std::uint8_t>(kind);
  const bool past_end = pos_ >= script_.size();
  if (const Entry* e = next(k))
    if (e->value < n) return logged(k, n, static_cast<std::uint32_t>(e->value));
  return logged(k, n, tail(n, past_end));
}

}  // namespace bspcheck::trace
