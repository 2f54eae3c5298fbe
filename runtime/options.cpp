#include "runtime/options.hpp"

#include "checker/suppressions.hpp"
#include "runtime/option_list.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace bspcheck::rt {

std::size_t parse_size(const std::string& text) {
  std::size_t pos = 0;
  unsigned long long v = std::stoull(text, &pos);
  std::string unit = text.substr(pos);
  if (unit == "k" || unit == "K") v <<= 10;
  else if (unit == "m" || unit == "M") v <<= 20;
  else if (unit == "g" || unit == "G") v <<= 30;
  else if (!unit.empty()) throw std::invalid_argument("bad size '" + text + "'");
  return static_cast<std::size_t>(v);
}

namespace {

bool parse_bool(const std::string& key, const std::string& v) {
  if (v == "1" || v == "true" || v == "yes") return true;
  if (v == "0" || v == "false" || v == "no") return false;
  throw std::invalid_argument(key + ": expected 0 or 1, got '" + v + "'");
}

void set_option(ProgramOptions& o, const std::string& key, const std::string& v) {
  try {
    if (key == "seed") o.run.seed = std::stoull(v, nullptr, 0);
    else if (key == "procs") {
      long n = std::stol(v);
      if (n < 1) throw std::invalid_argument("procs: must be at least 1, got " + v);
      o.run.procs = static_cast<int>(n);
    } else if (key == "strategy") {
      if (v == "random") o.run.strategy = Strategy::random;
      else if (v == "round_robin" || v == "round-robin") o.run.strategy = Strategy::round_robin;
      else if (v == "pct") o.run.strategy = Strategy::pct;
      else throw std::invalid_argument("strategy: expected random, round_robin or pct, got '" + v + "'");
    } else if (key == "pct_depth") {
      o.run.pct_depth = std::stoi(v);
      if (o.run.pct_depth < 1) throw std::invalid_argument("pct_depth: must be at least 1, got " + v);
    } else if (key == "pct_steps") {
      o.run.pct_steps = std::stoull(v);
      if (o.run.pct_steps < 1) throw std::invalid_argument("pct_steps: must be at least 1, got " + v);
    } else if (key == "stack") o.run.stack_size = parse_size(v);
    else if (key == "prefix") o.run.output_prefix = v;
    else if (key == "timeout") o.timeout_seconds = std::stod(v);
    else if (key == "report") o.report_file = v;
    else if (key == "realtime") o.run.real_time = parse_bool(key, v);
    else if (key == "check") o.run.checks = parse_bool(key, v);
    else if (key == "exitcode") o.exitcode = std::stoi(v);
    else if (key == "werror") o.run.werror = parse_bool(key, v);
    else if (key == "poison") o.run.asan_poisoning = parse_bool(key, v);
    else if (key == "trace") o.run.trace_file = v;
    else if (key == "break_superstep") o.run.break_superstep = std::stoi(v);
    else if (key == "break_process") o.run.break_process = std::stoi(v);
    else if (key == "replay") o.run.replay_file = v;
    else if (key == "guide") o.run.guide_file = v;
    else if (key == "guide_log") o.run.guide_log = v;
    else if (key == "suppressions") o.run.suppressions_file = v;
    else if (key == "globals") {
      if (v != "private" && v != "shared") throw std::invalid_argument("globals: expected private or shared, got '" + v + "'");
      o.private_globals = v == "private";
    } else if (key == "globals_remap") o.globals_remap_at = parse_size(v);
    else if (key == "disable") {
      for (const std::string& rule : split_list(v, ',')) {
        if (!checker::is_known_rule(rule)) throw std::invalid_argument("disable: unknown rule '" + rule + "'");
        o.run.disabled_rules.push_back(rule);
      }
    }
    else throw std::invalid_argument("unknown option '" + key + "'");
  } catch (const std::invalid_argument& e) {
    std::string what = e.what();
    if (what.rfind("sto", 0) == 0) throw std::invalid_argument(key + ": bad value '" + v + "'");
    throw;
  } catch (const std::out_of_range&) {
    throw std::invalid_argument(key + ": value out of range '" + v + "'");
  }
}

}  // namespace

ProgramOptions parse_program_options(const std::string& text) {
  ProgramOptions o;
  for (const auto& [key, value] : parse_key_values(text)) set_option(o, key, value);
  return o;
}

ProgramOptions program_options_from_environment() {
  ProgramOptions o;
  try {
    if (const char* s = std::getenv("BSPCHECK_OPTIONS")) o = parse_program_options(s);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bsp-check: error: BSPCHECK_OPTIONS: %s\n", e.what());
    std::_Exit(2);
  }
  o.run.echo_output = true;
  o.run.capture_output = false;
  if (const char* s = std::getenv("BSPCHECK_PREFIX")) o.run.output_prefix = s;
  if (const char* s = std::getenv("BSPCHECK_REPORT")) o.report_file = s;
  if (const char* s = std::getenv("BSPCHECK_REPRO")) o.repro_command = s;
  return o;
}

}  // namespace bspcheck::rt
