#include "runtime/options.hpp"

#include "bspcheck/rules.hpp"
#include "runtime/option_list.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace bspcheck::rt {

namespace {

// The value of a whole decimal number with nothing else around it (std::stoull would take
// "-1" as 2^64-1 and "3x" as 3), in [min, max]; else a message naming key, value and range.
unsigned long long whole_number(const std::string& key, const std::string& v, unsigned long long min,
                                unsigned long long max) {
  unsigned long long n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || ec != std::errc() ||
      end != v.data() + v.size() || n < min || n > max)
    throw std::invalid_argument(key + ": expected a whole number from " + std::to_string(min) + " to " +
                                std::to_string(max) + ", got '" + v + "'");
  return n;
}

}  // namespace

std::size_t parse_size(const std::string& text, const std::string& key, std::size_t max) {
  const std::size_t digits = text.find_first_not_of("0123456789");
  const std::string number = text.substr(0, digits), unit = digits == std::string::npos ? "" : text.substr(digits);
  int shift = 0;
  if (unit == "k" || unit == "K") shift = 10;
  else if (unit == "m" || unit == "M") shift = 20;
  else if (unit == "g" || unit == "G") shift = 30;
  const std::string allowed = key + ": expected a size from 0 to " + std::to_string(max >> 30) +
                              "g (a number with an optional k, m or g), got '" + text + "'";
  if (!unit.empty() && shift == 0) throw std::invalid_argument(allowed);
  try {
    return static_cast<std::size_t>(whole_number(key, number, 0, max >> shift) << shift);
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument(allowed);
  }
}

namespace {

double seconds(const std::string& key, const std::string& v) {
  errno = 0;
  char* end = nullptr;
  const double d = v.empty() ? NAN : std::strtod(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size() || errno != 0 || !std::isfinite(d) || d < 0 || d > 1e7)
    throw std::invalid_argument(key + ": expected seconds from 0 to 10000000 (0: none), got '" + v + "'");
  return d;
}

// A seed: decimal, or hexadecimal after 0x (a seed printed by another tool), without a sign.
std::uint64_t seed_value(const std::string& v) {
  if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(v.data() + 2, v.data() + v.size(), n, 16);
    if (ec == std::errc() && end == v.data() + v.size()) return n;
    throw std::invalid_argument("seed: expected a whole number from 0 to 18446744073709551615 (or 0x hex), got '" + v + "'");
  }
  return whole_number("seed", v, 0, UINT64_MAX);
}

// An unwritable report would be found only at the end, after the whole run: refuse it now.
void check_writable(const std::string& key, const std::string& path) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd >= 0) {
    close(fd);
    unlink(path.c_str());  // the check leaves nothing behind
    return;
  }
  if (errno == EEXIST) fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw std::invalid_argument(key + ": cannot write '" + path + "': " + std::strerror(errno));
  close(fd);
}

bool parse_bool(const std::string& key, const std::string& v) {
  if (v == "1" || v == "true" || v == "yes") return true;
  if (v == "0" || v == "false" || v == "no") return false;
  throw std::invalid_argument(key + ": expected 0 or 1, got '" + v + "'");
}

void set_option(ProgramOptions& o, const std::string& key, const std::string& v) {
  try {
    if (key == "seed") o.run.seed = seed_value(v);
    else if (key == "procs") {
      if (v == "0") throw std::invalid_argument("procs: must be at least 1, got " + v);
      o.run.procs = static_cast<int>(whole_number(key, v, 1, INT32_MAX));
    } else if (key == "strategy") {
      if (v == "random") o.run.strategy = Strategy::random;
      else if (v == "round_robin" || v == "round-robin") o.run.strategy = Strategy::round_robin;
      else if (v == "pct") o.run.strategy = Strategy::pct;
      else throw std::invalid_argument("strategy: expected random, round_robin or pct, got '" + v + "'");
    } else if (key == "pct_depth") {
      o.run.pct_depth = static_cast<int>(whole_number(key, v, 1, 1000000));
    } else if (key == "pct_steps") {
      o.run.pct_steps = whole_number(key, v, 1, 1000000000);
    } else if (key == "stack") o.run.stack_size = parse_size(v);
    else if (key == "prefix") o.run.output_prefix = v;
    else if (key == "timeout") o.timeout_seconds = seconds(key, v);
    else if (key == "report") {
      check_writable(key, v);
      o.report_file = v;
    }
    else if (key == "realtime") o.run.real_time = parse_bool(key, v);
    else if (key == "time_jitter") o.run.time_jitter = parse_bool(key, v);
    else if (key == "check") o.run.checks = parse_bool(key, v);
    else if (key == "exitcode") o.exitcode = static_cast<int>(whole_number(key, v, 0, 255));
    else if (key == "werror") o.run.werror = parse_bool(key, v);
    else if (key == "poison") o.run.asan_poisoning = parse_bool(key, v);
    else if (key == "trace") o.run.trace_file = v;
    else if (key == "break_superstep") o.run.break_superstep = v == "-1" ? -1 : static_cast<int>(whole_number(key, v, 0, INT32_MAX));
    else if (key == "break_process") o.run.break_process = static_cast<int>(whole_number(key, v, 0, INT32_MAX));
    else if (key == "replay") o.run.replay_file = v;
    else if (key == "guide") o.run.guide_file = v;
    else if (key == "guide_log") o.run.guide_log = v;
    else if (key == "suppressions") o.run.suppressions_file = v;
    else if (key == "globals") {
      if (v != "private" && v != "shared") throw std::invalid_argument("globals: expected private or shared, got '" + v + "'");
      o.private_globals = v == "private";
      o.globals_chosen = true;
    } else if (key == "globals_remap") o.globals_remap_at = parse_size(v, key, std::size_t{1} << 40);
    else if (key == "disable") {
      for (const std::string& rule : split_list(v, ',')) {
        if (!is_known_rule(rule)) throw std::invalid_argument("disable: unknown rule '" + rule + "'");
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
