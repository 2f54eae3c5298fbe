// program_outside_spmd.cpp: BSPlib primitives called while no SPMD part runs (before bsp_begin,
// after bsp_end), in a program or around an in-process run: findings of no superstep.
#include <string>

#include "engine/core/foreign_contexts.hpp"
#include "engine/host/entry_points.hpp"
#include "engine/host/program_report.hpp"
#include "engine/host/program_session.hpp"

namespace bspcheck::rt {

using namespace program;

int available_processors() {
  if (Launch* l = active_launch()) return l->options.procs;
  return options().run.procs;
}

void misuse_outside_spmd(const char* call, const Site& site) {
  std::string where = site.file ? std::string(" at ") + site.file + ":" + std::to_string(site.line) : "";
  Location loc{site.file ? site.file : "", site.line, 0, call, {}, {}};
  if (Launch* l = active_launch()) {
    std::string msg = std::string(call) + " called outside bsp_begin/bsp_end" + where;
    l->findings.push_back(Finding{rule_id(Rule::api_misuse), rule_severity(Rule::api_misuse), msg, {0}, 0, {loc}});
    return;
  }
  std::string msg =
      std::string(call) + (g_session.report_written ? " called after bsp_end" : " called before bsp_begin") + where;
  g_session.outside_misuse = true;
  report_outside_spmd(Finding{rule_id(Rule::api_misuse),
                              rule_severity(Rule::api_misuse),
                              msg,
                              {0},
                              g_session.report_written ? g_session.final_superstep : 0,
                              {loc}});
}

void abort_outside_spmd(const char* message, const Site& site) {
  const bool after = g_session.report_written;
  std::string text = message;
  while (!text.empty() && text.back() == '\n') text.pop_back();  // a format's own newline
  Finding f{rule_id(Rule::abort),
            rule_severity(Rule::abort),
            std::string("process 0 called bsp_abort ") + (after ? "after bsp_end" : "before bsp_begin") + ": " + text,
            {0},
            after ? g_session.final_superstep : 0,
            {Location{site.file ? site.file : "", site.line, 0, "bsp_abort", {}, {}}}};
  if (Launch* l = active_launch()) {
    l->findings.push_back(std::move(f));
    return;
  }
  report_outside_spmd(f);
  if (!after && !in_forked_child()) write_report(false);  // the caller ends the program at once
}

}  // namespace bspcheck::rt
