// guided_scheduler.hpp: the scheduler that follows a choice script (replay/choice_script.hpp),
// for shrinking and bounded search; with a log it explores.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "replay/choice_script.hpp"
#include "replay/trace_format.hpp"
#include "runtime/rng.hpp"
#include "runtime/scheduler.hpp"

namespace bspcheck::trace {

// Follows a script of choices leniently: the i-th choice the run makes takes the script's i-th
// entry when it is given, of the right kind and possible now, and the default otherwise. The
// default schedule runs the current process on while it can (else the lowest runnable pid) and
// leaves every order as it is (choice 0). `bsp-check shrink` moves a failing run towards it.
class GuidedScheduler final : public rt::Scheduler {
 public:
  struct Entry {
    std::uint8_t kind;
    bool given;
    std::uint64_t value;
  };
  // With a log file the scheduler explores: it writes every choice it is offered ("KIND N VALUE
  // SUPERSTEP" per line, N the number of options) and the runtime offers only those that can matter.
  explicit GuidedScheduler(std::vector<Entry> script, const std::string& log_path = "")
      : GuidedScheduler(Script{std::move(script)}, log_path) {}
  ~GuidedScheduler() override;
  bool exploring() const override { return log_ != nullptr || memory_log_ != nullptr; }
  // Script file: one line per choice, "KIND VALUE" or "KIND -" (default); KIND as in traces.
  // A line "random SEED" anywhere makes the choices past the script's end uniform draws from
  // SEED instead of the default (a coverage search's fresh runs, replay/coverage_search.hpp).
  struct Script {
    std::vector<Entry> entries;
    bool random_tail = false;
    std::uint64_t tail_seed = 0;
  };
  static Script load(const std::string& path);  // throws TraceError
  explicit GuidedScheduler(Script script, const std::string& log_path = "");
  // Exploring with the log kept in memory (the in-process searches): each offered choice is
  // appended to `log`, as the log file's lines would be.
  GuidedScheduler(Script script, std::vector<OfferedChoice>& log);

  // Superstep n begins: the log names each choice's superstep (coverage counts per superstep).
  void superstep(std::uint64_t n) { superstep_ = n; }

  int next_process(const rt::RunnableSet& runnable, int current) override;
  std::uint32_t choose(rt::ChoiceKind kind, std::uint32_t n) override;

 private:
  const Entry* next(std::uint8_t kind);
  std::uint32_t logged(std::uint8_t kind, std::uint32_t n, std::uint32_t value);
  // Past the script's end: the default, or a uniform draw when the script asked for it.
  std::uint32_t tail(std::uint32_t n, bool past_end);
  std::vector<Entry> script_;
  std::size_t pos_ = 0;
  std::FILE* log_ = nullptr;
  std::vector<OfferedChoice>* memory_log_ = nullptr;
  std::uint64_t superstep_ = 0;
  bool random_tail_ = false;
  rt::Rng tail_rng_;
};

}  // namespace bspcheck::trace
