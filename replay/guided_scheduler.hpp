// guided_scheduler.hpp: the scheduler that follows a choice script (replay/choice_script.hpp),
// for shrinking and the searches; with a log it explores. It does not wrap the run's seeded
// strategy: the script and its tail (the default schedule, or the script's own random seed)
// answer every choice, so that a guided run is the same whatever the seed and strategy options
// say (a shrunk or explored schedule must not change with them).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "replay/choice_script.hpp"
#include "replay/trace_format.hpp"
#include "runtime/base/rng.hpp"
#include "runtime/scheduling/scheduler.hpp"

namespace bspcheck::trace {

// Follows a script of choices leniently: the i-th choice the run makes takes the script's i-th
// entry when it is given, of the right kind and possible now, and the default otherwise. The
// default schedule runs the current process on while it can (else the lowest runnable pid) and
// leaves every order as it is (choice 0). `bsp-check shrink` moves a failing run towards it.
class GuidedScheduler final : public rt::Scheduler {
 public:
  // With a log the scheduler explores: it logs every choice it is offered (a file: "KIND N VALUE
  // SUPERSTEP" per line, N the number of options; or, in-process, a list) and the runtime offers
  // only those that can matter.
  explicit GuidedScheduler(ChoiceScript script, const std::string& log_path = "");
  GuidedScheduler(ChoiceScript script, std::vector<OfferedChoice>* log);
  ~GuidedScheduler() override;
  bool exploring() const override { return log_file_ != nullptr || log_ != nullptr; }

  // Superstep n begins: the log names each choice's superstep (coverage counts per superstep).
  void superstep(std::uint64_t n) { superstep_ = n; }

  int next_process(const rt::RunnableSet& runnable, int current) override;
  std::uint32_t choose(rt::ChoiceKind kind, std::uint32_t n) override;

 private:
  const ChoiceScript::Entry* next(std::uint8_t kind);
  std::uint32_t logged(std::uint8_t kind, std::uint32_t n, std::uint32_t value);
  // Past the script's end: the default, or a uniform draw when the script asked for it.
  std::uint32_t tail(std::uint32_t n, bool past_end);
  std::vector<ChoiceScript::Entry> script_;
  std::size_t pos_ = 0;
  std::FILE* log_file_ = nullptr;
  std::vector<OfferedChoice>* log_ = nullptr;
  std::uint64_t superstep_ = 0;
  bool random_tail_ = false;
  rt::Rng tail_rng_;
};

}  // namespace bspcheck::trace
