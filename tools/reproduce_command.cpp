#include "tools/reproduce_command.hpp"

#include <cstdio>
#include <vector>

#include "runtime/shell_word.hpp"

namespace bspcheck::cli {

std::string shell_quote(const std::string& s) { return rt::shell_word(s); }

namespace {

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

}  // namespace

std::string repro_command(const RunConfig& c, int p, std::uint64_t seed) {
  // A replayed run is the trace's run, whatever seed or strategy recorded it (an explored
  // schedule has no seed that gives it).
  if (!c.replay_file.empty()) return "bsp-check replay " + shell_quote(c.replay_file);
  std::string cmd = "bsp-check run -p " + std::to_string(p) + " --seed " + std::to_string(seed);
  if (c.strategy != "random") cmd += " --strategy " + c.strategy;
  if (c.strategy == "pct")
    cmd += " --pct-depth " + std::to_string(c.pct_depth) + " --pct-steps " + std::to_string(c.pct_steps);
  if (!c.stack_size.empty()) cmd += " --stack-size " + c.stack_size;
  if (c.timeout > 0) {
    char t[32];
    std::snprintf(t, sizeof t, "%g", c.timeout);
    cmd += std::string(" --timeout ") + t;
  }
  if (c.werror) cmd += " --werror";
  if (!c.disabled_rules.empty()) cmd += " --disable " + join(c.disabled_rules, ",");
  if (!c.suppressions_file.empty()) cmd += " --suppressions " + shell_quote(c.suppressions_file);
  if (c.no_check) cmd += " --no-check";
  if (c.time_jitter) cmd += " --time-jitter";
  if (c.grant_fewer) cmd += " --grant-fewer";
  if (c.virtual_time) cmd += " --virtual-time";
  if (!c.globals.empty()) cmd += " --globals " + c.globals;
  cmd += " " + shell_quote(c.program);
  for (const std::string& a : c.args) cmd += " " + shell_quote(a);
  return cmd;
}
}  // namespace bspcheck::cli
