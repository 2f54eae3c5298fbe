#include "replay/guided_scheduler.hpp"

#include <algorithm>
#include <fstream>

namespace bspcheck::trace {

std::vector<GuidedScheduler::Entry> GuidedScheduler::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw TraceError(path + ": cannot read the choice script");
  std::vector<Entry> script;
  std::string value;
  unsigned kind = 0;
  while (in >> kind >> value) {
    if (kind < 1 || kind > 5) throw TraceError(path + ": bad choice kind " + std::to_string(kind));
    Entry e{static_cast<std::uint8_t>(kind), value != "-", 0};
    if (e.given) e.value = std::stoull(value);
    script.push_back(e);
  }
  return script;
}

GuidedScheduler::GuidedScheduler(std::vector<Entry> script, const std::string& log_path) : script_(std::move(script)) {
  if (!log_path.empty()) {
    log_ = std::fopen(log_path.c_str(), "w");
    if (!log_) throw TraceError(log_path + ": cannot write the choice log");
  }
}

GuidedScheduler::~GuidedScheduler() {
  if (log_) std::fclose(log_);
}

std::uint32_t GuidedScheduler::logged(std::uint8_t kind, std::uint32_t n, std::uint32_t value) {
  if (log_) {
    std::fprintf(log_, "%u %u %u\n", static_cast<unsigned>(kind), n, value);
    std::fflush(log_);  // a run that crashes still tells what it chose
  }
  return value;
}

const GuidedScheduler::Entry* GuidedScheduler::next(std::uint8_t kind) {
  if (pos_ >= script_.size()) return nullptr;
  const Entry* e = &script_[pos_++];
  return e->given && e->kind == kind ? e : nullptr;
}

int GuidedScheduler::next_process(const rt::RunnableSet& runnable, int current) {
  if (exploring()) {  // interleaving is not explored: the default, not offered, not logged
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
  if (const Entry* e = next(k))
    if (e->value < n) return logged(k, n, static_cast<std::uint32_t>(e->value));
  if (exploring()) return logged(k, n, n - 1);
  // n - 1 leaves a Fisher-Yates step where it is (so queues and writes keep their issue order)
  // and, for hp timing's "now?" (n = 2), says "not yet": unbuffered operations land at the barrier.
  return n - 1;
}

}  // namespace bspcheck::trace
