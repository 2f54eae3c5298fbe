#include "tools/cli/reproduce_command.hpp"

#include "runtime/options/options.hpp"
#include "runtime/options/reproduce.hpp"
#include "runtime/base/shell_word.hpp"

namespace bspcheck::cli {

std::string shell_quote(const std::string& s) { return rt::shell_word(s); }

std::string timeout_flag(const rt::ProgramOptions& o) {
  for (const auto& [flag, value] : rt::reproduce_flags(o))
    if (flag == "--timeout") return " --timeout " + shell_quote(value);
  return "";
}

std::string replay_line(const rt::ProgramOptions& o, const std::string& trace) {
  return "bsp-check replay" + timeout_flag(o) + " " + shell_quote(trace);
}

std::string repro_command(const RunConfig& c, int p, std::uint64_t seed, std::uint64_t seeds) {
  // A replayed run is the trace's run, whatever seed or strategy recorded it (an explored
  // schedule has no seed that gives it).
  if (!c.options.run.replay_file.empty()) {
    std::string line = replay_line(c.options, c.options.run.replay_file);
    if (c.program_replaces_traced) {  // the same replay is of this program, not the trace's
      line += " -- " + shell_quote(c.program);
      for (const std::string& a : c.args) line += " " + shell_quote(a);
    }
    return line;
  }
  return rt::reproduce_run_line(c.options, p, seed, seeds, c.program, c.args);
}
}  // namespace bspcheck::cli
