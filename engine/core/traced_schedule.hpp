// traced_schedule.hpp: the scheduler of one run, composed from its options by wrapping, and the
// trace it records or replays. The seeded strategy (runtime/scheduling/) answers, or a guide
// (bsp-check shrink, explore, the in-process searches) in its place: a guide answers every
// choice itself (replay/guided_scheduler.hpp), so the strategy is not built; a replay wraps what
// is there (its fallback past the end of a cut-off trace); recording wraps everything. Each wrapper owns what it wraps
// (replay/), so the replayer stays valid for the run whatever is combined. Outermost, the
// coverage counter (runtime/scheduling/coverage_scheduler.hpp) sees every choice, whatever answers it.
// World asks scheduler() for every choice and reports every call here (call()).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bspcheck/bspcheck.hpp"
#include "engine/core/in_memory_guide.hpp"
#include "replay/trace_format.hpp"
#include "replay/guided_scheduler.hpp"
#include "replay/recording_scheduler.hpp"
#include "replay/replay_scheduler.hpp"
#include "runtime/scheduling/coverage_scheduler.hpp"
#include "runtime/scheduling/scheduler.hpp"

namespace bspcheck::rt {

// What a trace header says about the program: its path, arguments and a digest of both. The host
// that makes the World tells it (program mode: the executable and main's arguments,
// engine/host/program_begin.cpp); an in-process run has none. Asked only when a trace is recorded
// or replayed: the digest reads the whole executable.
struct ProgramIdentity {
  std::string program;
  std::vector<std::string> args;
  std::uint64_t digest = 0;
};
using IdentifyProgram = ProgramIdentity (*)();

class TracedSchedule {
 public:
  // on_divergence: a replayed run made another call than the trace (a finding that stops the
  // run); note: a remark on the replay (e.g. the trace ended). guide: steers the run in place of
  // Options::guide_file. Throws trace::TraceError for a trace or script that cannot be read or
  // written.
  TracedSchedule(const Options& options, std::function<void(const std::string&)> on_divergence,
                 std::function<void(const std::string&)> note, const GuideInMemory* guide = nullptr,
                 IdentifyProgram identify = nullptr);
  ~TracedSchedule();  // ends a recorded trace (a run stopped by _exit leaves it cut off)

  Scheduler& scheduler() { return *sched_; }
  // Is any call recorded or checked? (World skips building the record when not.)
  bool tracing() const { return writer_ || replayer_; }
  void call(const trace::CallRecord& rec) {  // inline: every call of a recorded or replayed run
    if (writer_) writer_->call(rec);
    if (replayer_) replayer_->call(rec);
  }
  // The format version whose data checksum the run's calls take (trace::checksum): the replayed
  // trace's, else the one written.
  std::uint16_t data_checksum_version() const { return data_checksum_version_; }
  // A measurement (Options::measure_work): recorded, never replayed or compared.
  void work(std::uint32_t pid, std::uint64_t ns) {
    if (writer_) writer_->work(pid, ns);
  }
  // A barrier: superstep n begins.
  void superstep(std::uint64_t n);
  // The coverage tuples the run's choices reached so far (runtime/scheduling/coverage_map.hpp).
  const CoverageMap& coverage() const { return coverage_->coverage(); }
  // Bytes and calls written so far (0, 0 when not recording).
  std::pair<std::uint64_t, std::uint64_t> size() const;
  void flush();

 private:
  std::unique_ptr<Scheduler> sched_;
  std::unique_ptr<trace::Writer> writer_;
  trace::ReplayScheduler* replayer_ = nullptr;  // inside sched_'s chain, when replaying
  trace::GuidedScheduler* guide_ = nullptr;     // inside sched_'s chain, when guided
  CoverageScheduler* coverage_ = nullptr;       // sched_ itself: the outermost wrapper
  std::uint16_t data_checksum_version_ = trace::kFormatVersion;
};

}  // namespace bspcheck::rt
