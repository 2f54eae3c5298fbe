#include "replay/guided_scheduler.hpp"

#include <algorithm>

#include "runtime/base/runtime_file.hpp"

namespace bspcheck::trace {

GuidedScheduler::GuidedScheduler(ChoiceScript script, const std::string& log_path)
    : script_(std::move(script.entries)), random_tail_(script.random_tail), tail_rng_(script.tail_seed) {
  if (!log_path.empty()) {
    log_file_ = rt::open_runtime_file(log_path.c_str(), "w");
    if (!log_file_) throw TraceError(log_path + ": cannot write the choice log");
  }
}

GuidedScheduler::GuidedScheduler(ChoiceScript script, std::vector<OfferedChoice>* log)
    : GuidedScheduler(std::move(script)) {
  log_ = log;
}

GuidedScheduler::~GuidedScheduler() {
  if (log_file_) rt::close_runtime_file(log_file_);
}

std::uint32_t GuidedScheduler::logged(std::uint8_t kind, std::uint32_t n, std::uint32_t value) {
  if (log_file_) {
    std::fprintf(log_file_, "%u %u %u %llu\n", static_cast<unsigned>(kind), n, value,
                 static_cast<unsigned long long>(superstep_));
    std::fflush(log_file_);  // a run that crashes still tells what it chose
  }
  if (log_) log_->push_back({kind, n, value, superstep_});
  return value;
}

std::uint32_t GuidedScheduler::tail(std::uint32_t n, bool past_end) {
  // n - 1 leaves a Fisher-Yates step where it is (so queues and writes keep their issue order)
  // and, for hp timing's "now?" (n = 2), says "not yet": unbuffered operations land at the barrier.
  if (!random_tail_ || !past_end) return n - 1;
  return tail_rng_.below(n);
}

const ChoiceScript::Entry* GuidedScheduler::next(std::uint8_t kind) {
  if (pos_ >= script_.size()) return nullptr;
  const ChoiceScript::Entry* e = &script_[pos_++];
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
  if (const ChoiceScript::Entry* e = next(static_cast<std::uint8_t>(rt::ChoiceKind::next_process)))
    if (e->value < static_cast<std::uint64_t>(runnable.nprocs()) && runnable.contains(static_cast<int>(e->value)))
      return static_cast<int>(e->value);
  if (runnable.contains(current)) return current;
  return *std::min_element(runnable.list.begin(), runnable.list.end());
}

std::uint32_t GuidedScheduler::choose(rt::ChoiceKind kind, std::uint32_t n) {
  if (exploring() && kind == rt::ChoiceKind::time) return n - 1;
  const auto k = static_cast<std::uint8_t>(kind);
  const bool past_end = pos_ >= script_.size();
  if (const ChoiceScript::Entry* e = next(k))
    if (e->value < n) return logged(k, n, static_cast<std::uint32_t>(e->value));
  return logged(k, n, tail(n, past_end));
}

}  // namespace bspcheck::trace
