// run_api.cpp: bspcheck::run, the in-process entry: process 0 starts on a fiber of its own so
// that the caller (a test, say) is the host and gets control back when every process is done.
#include <sstream>
#include <stdexcept>

#include "bspcheck/bspcheck.hpp"
#include "checker/finding_text.hpp"
#include "engine/host/entry_points.hpp"
#include "runtime/fibers/exception_state.hpp"

namespace bspcheck {

bool RunResult::ok() const {
  if (aborted) return false;
  for (const Finding& f : findings)
    if (checker::finding_fails(f, werror)) return false;
  return true;
}

std::size_t RunResult::count(const std::string& rule) const {
  std::size_t n = 0;
  for (const Finding& f : findings) n += f.rule == rule;
  return n;
}

std::string RunResult::summary() const {
  std::ostringstream s;
  s << "p=" << nprocs << " seed=" << seed << " supersteps=" << supersteps << (aborted ? " aborted" : "")
    << " findings=" << findings.size() << "\n";
  for (const Finding& f : findings) s << checker::render_finding(f, "");
  return s.str();
}

namespace rt {

namespace {

Launch* g_launch = nullptr;

void launch_entry(void* arg) {
  Launch& l = *static_cast<Launch*>(arg);
  bool unwound = false;
  World* w = nullptr;
  {  // leave() and exit_context never return: nothing that owns memory may outlive this block
    const SpmdEnd end = run_spmd(l.body, 0);
    unwound = end.unwound;
    w = World::current();  // made by bsp_begin inside the body; none if it never called it
    if (w) {
      if (!end.crash.empty()) {
        w->report_stopped(end);
        w->request_stop();
      }
    } else if (!end.crash.empty()) {
      l.findings.push_back(Finding{rule_id(end.rule), rule_severity(end.rule), end.crash, {0}, 0, {}});
    } else if (!unwound) {
      l.findings.push_back(Finding{rule_id(Rule::api_misuse),
                                   rule_severity(Rule::api_misuse),
                                   "the SPMD function returned without calling bsp_begin",
                                   {0},
                                   0,
                                   {}});
    }
  }
  if (w) w->leave(w->processes()[0], unwound);
  exit_context(l.process0, l.host);
}

}  // namespace

Launch* active_launch() { return g_launch; }

void begin_in_process(Launch& l, int maxprocs, const Site& site) {
  int p = std::min(maxprocs, l.options.procs);
  if (p < 1) p = 1;
  l.world = std::make_unique<World>(l.options, World::Mode::in_process, p, l.body, l.guide);
  World& w = *l.world;
  w.adopt_contexts(&l.host, l.process0, l.stack0);
  if (l.options.capture_output || l.options.echo_output) l.capture = w.capture_output();
  w.enter("bsp_begin", site);
  if (maxprocs < 1) w.report(Rule::api_misuse, "bsp_begin(" + std::to_string(maxprocs) + ") requests no processes");
  w.switch_point();
}

RunResult run_in_process(const Options& options, const std::function<void()>& spmd, const GuideInMemory* guide) {
  if (g_launch || World::current())
    throw std::logic_error("bspcheck::run: a BSPlib computation is already running on this thread");
  if (options.procs < 1) throw std::invalid_argument("bspcheck::run: options.procs must be at least 1");
  Launch l;
  l.options = options;
  l.body = spmd;
  l.guide = guide;
  StackPool stack_pool(options.stack_size, 1);
  l.stack0 = stack_pool.stack(0);
  make_context(l.process0, l.stack0.top(), l.stack0.size, &launch_entry, &l);
  g_launch = &l;
  // The processes start with no exception in flight, whatever handler the caller is in; its own
  // exception state is back when they have finished (runtime/fibers/exception_state.hpp).
  const ExceptionStates::Globals host_exceptions = ExceptionStates::take();
  switch_context(l.host, l.process0);
  // Every process has finished.
  ExceptionStates::give_back(host_exceptions);
  g_launch = nullptr;
  l.capture.reset();
  RunResult r;
  r.seed = options.seed;
  r.werror = options.werror;
  r.findings = std::move(l.findings);
  if (World* w = l.world.get()) {
    r.nprocs = w->nprocs();
    r.supersteps = w->completed_supersteps();
    r.aborted = w->aborted() || w->stopping();
    r.abort_message = w->abort_message();
    r.switches = w->switches();
    r.superstep_stats = w->superstep_stats();
    r.coverage = w->coverage();
    for (const Finding& f : w->diagnostics().findings()) r.findings.push_back(f);
    for (Process& pr : w->processes()) r.output.push_back(std::move(pr.output.captured));
    l.world.reset();
  }
  destroy_context(l.process0);
  return r;
}

}  // namespace rt

RunResult run(const Options& options, const std::function<void()>& spmd) {
  return rt::run_in_process(options, spmd, nullptr);
}

}  // namespace bspcheck
