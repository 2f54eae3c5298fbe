#include "engine/core/traced_schedule.hpp"

#include <cstdio>

#include "runtime/options/options.hpp"

namespace bspcheck::rt {

TracedSchedule::TracedSchedule(const Options& options, std::function<void(const std::string&)> on_divergence,
                               std::function<void(const std::string&)> note, const GuideInMemory* guide,
                               IdentifyProgram identify) {
  const auto identity = [identify] { return identify ? identify() : ProgramIdentity{}; };
  std::unique_ptr<trace::GuidedScheduler> guided;
  if (guide) guided = std::make_unique<trace::GuidedScheduler>(guide->script, guide->log);
  else if (!options.guide_file.empty())
    guided = std::make_unique<trace::GuidedScheduler>(trace::ChoiceScript::load(options.guide_file), options.guide_log);
  guide_ = guided.get();
  if (guided) sched_ = std::move(guided);
  else sched_ = make_scheduler(options);
  if (!options.replay_file.empty()) {
    auto replay = std::make_unique<trace::ReplayScheduler>(trace::EventStream::open(options.replay_file), std::move(sched_),
                                                           std::move(on_divergence), std::move(note));
    replayer_ = replay.get();
    sched_ = std::move(replay);
    if (!replayer_->header().program.empty() && identity().digest != replayer_->header().program_digest)
      std::fprintf(stderr, "bsp-check: note: %s: the program or its arguments differ from the recorded run; "
                   "the replay stops at the first different call\n", options.replay_file.c_str());
  }
  if (!options.trace_file.empty()) {
    trace::Header h;
    h.tool_version = "0.1.0";
    ProgramIdentity id = identity();
    h.program = std::move(id.program);
    h.args = std::move(id.args);
    h.program_digest = id.digest;
    h.procs = static_cast<std::uint32_t>(options.procs);
    h.seed = options.seed;
    h.strategy = sched_->exploring() ? trace::kExploringStrategy : strategy_name(options.strategy);
    // The checker options, so that a replay reports what the recorded run reported.
    ProgramOptions recorded;
    recorded.run = options;
    h.checks = format_program_options(recorded, OptionScope::checker);
    writer_ = std::make_unique<trace::Writer>(options.trace_file, h);
    sched_ = std::make_unique<trace::RecordingScheduler>(std::move(sched_), *writer_);
  }
  auto counting = std::make_unique<CoverageScheduler>(std::move(sched_));
  coverage_ = counting.get();
  sched_ = std::move(counting);
}

TracedSchedule::~TracedSchedule() {
  if (writer_) writer_->end();
}

void TracedSchedule::superstep(std::uint64_t n) {
  coverage_->superstep(n);
  if (guide_) guide_->superstep(n);
  if (writer_) writer_->superstep(n);
  if (replayer_) replayer_->superstep(n);
}

std::pair<std::uint64_t, std::uint64_t> TracedSchedule::size() const {
  return writer_ ? std::make_pair(writer_->bytes(), writer_->calls()) : std::make_pair(std::uint64_t{0}, std::uint64_t{0});
}

void TracedSchedule::flush() {
  if (writer_) writer_->flush();
}

}  // namespace bspcheck::rt
