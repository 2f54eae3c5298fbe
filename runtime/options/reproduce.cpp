#include "runtime/options/reproduce.hpp"

#include <stdexcept>

#include "runtime/base/shell_word.hpp"

namespace bspcheck::rt {

std::string reproduce_run_line(const ProgramOptions& o, int p, std::uint64_t seed, std::uint64_t seeds,
                               const std::string& program, const std::vector<std::string>& args) {
  std::string cmd = "bsp-check run -p " + std::to_string(p) + " --seed " + std::to_string(seed);
  if (seeds > 1) cmd += " --seeds " + std::to_string(seeds);
  for (const auto& [flag, value] : reproduce_flags(o))
    cmd += " " + flag + (value.empty() ? "" : " " + shell_word(value));
  cmd += " " + shell_word(program);
  for (const std::string& a : args) cmd += " " + shell_word(a);
  return cmd;
}

std::string reproduce_environment_line(const ProgramOptions& o, const std::vector<std::string>& command) {
  std::string cmd = "BSPCHECK_OPTIONS=" + shell_word(format_program_options(o, OptionScope::reproduce));
  for (const std::string& a : command) cmd += " " + a;
  return cmd;
}

}  // namespace bspcheck::rt

// The public names (include/bspcheck/bspcheck.hpp), for bspcheck/testing.hpp's reproduce lines.
namespace bspcheck {

std::string strategy_name(Strategy s) { return rt::StrategyValue::format(s); }

bool strategy_from_name(const std::string& name, Strategy& s) {
  try {
    s = rt::StrategyValue::parse("strategy", name);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

std::string reproduce_command(int p, std::uint64_t seed, Strategy strategy, const std::string& program) {
  rt::ProgramOptions o;
  o.run.strategy = strategy;
  return rt::reproduce_run_line(o, p, seed, 1, program, {});
}

}  // namespace bspcheck
