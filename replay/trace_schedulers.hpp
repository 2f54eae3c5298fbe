// trace_schedulers.hpp: the two schedulers a trace plugs in behind rt::Scheduler.
//   RecordingScheduler  asks the real strategy and writes every answer to the trace;
//   ReplayScheduler     answers from a recorded trace and checks that the program makes the
//                       same calls, reporting the first difference as replay-divergence.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "replay/trace_format.hpp"
#include "runtime/scheduler.hpp"

namespace bspcheck::trace {

class RecordingScheduler final : public rt::Scheduler {
 public:
  RecordingScheduler(std::unique_ptr<rt::Scheduler> inner, Writer& out) : inner_(std::move(inner)), out_(out) {}
  int next_process(const rt::RunnableSet& runnable, int current) override {
    const int pid = inner_->next_process(runnable, current);
    out_.choice(static_cast<std::uint8_t>(rt::ChoiceKind::next_process), static_cast<std::uint64_t>(pid));
    return pid;
  }
  std::uint32_t choose(rt::ChoiceKind kind, std::uint32_t n) override {
    const std::uint32_t v = inner_->choose(kind, n);
    out_.choice(static_cast<std::uint8_t>(kind), v);
    return v;
  }

 private:
  std::unique_ptr<rt::Scheduler> inner_;
  Writer& out_;
};

class ReplayScheduler final : public rt::Scheduler {
 public:
  // diverged(message) reports replay-divergence and stops the run; it does not return.
  // note(message) tells the user something worth knowing that is not a finding.
  ReplayScheduler(Reader trace, std::unique_ptr<rt::Scheduler> after_end,
                  std::function<void(const std::string&)> diverged, std::function<void(const std::string&)> note)
      : trace_(std::move(trace)), after_end_(std::move(after_end)), diverged_(std::move(diverged)),
        note_(std::move(note)) {}

  int next_process(const rt::RunnableSet& runnable, int current) override;
  std::uint32_t choose(rt::ChoiceKind kind, std::uint32_t n) override;
  // The program made this call: it must be the trace's next record.
  void call(const CallRecord& actual);
  void superstep(std::uint64_t n);
  // Past the end of a trace that was cut off (a crash): choices come from the fallback.
  bool past_end() const { return pos_ >= trace_.events().size(); }
  const Header& header() const { return trace_.header(); }

 private:
  const Event* next(const char* expecting);
  std::string describe(const Event& e) const;
  Reader trace_;
  std::size_t pos_ = 0;
  std::unique_ptr<rt::Scheduler> after_end_;
  std::function<void(const std::string&)> diverged_;
  std::function<void(const std::string&)> note_;
  bool noted_end_ = false;
};

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
  // With a log file the scheduler explores: it writes every choice it is offered ("KIND N VALUE"
  // per line, N the number of options) and the runtime offers only those that can matter.
  explicit GuidedScheduler(std::vector<Entry> script, const std::string& log_path = "");
  ~GuidedScheduler() override;
  bool exploring() const override { return log_ != nullptr; }
  // Script file: one line per choice, "KIND VALUE" or "KIND -" (default); KIND as in traces.
  static std::vector<Entry> load(const std::string& path);  // throws TraceError

  int next_process(const rt::RunnableSet& runnable, int current) override;
  std::uint32_t choose(rt::ChoiceKind kind, std::uint32_t n) override;

 private:
  const Entry* next(std::uint8_t kind);
  std::uint32_t logged(std::uint8_t kind, std::uint32_t n, std::uint32_t value);
  std::vector<Entry> script_;
  std::size_t pos_ = 0;
  std::FILE* log_ = nullptr;
};

std::string describe_call(const CallRecord& r);

}  // namespace bspcheck::trace
