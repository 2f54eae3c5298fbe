#include "runtime/options/driver_environment.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

namespace bspcheck::rt {

namespace {

constexpr const char* kNames[] = {"BSPCHECK_OPTIONS", "BSPCHECK_REPORT", "BSPCHECK_REPRO", "BSPCHECK_PREFIX"};
static_assert(sizeof kNames / sizeof kNames[0] == static_cast<int>(DriverVariable::count_));

// Plain pointers and flags, zero before any constructor runs: read by other constructors of the
// library (engine/core/libc_clocks.cpp), which the priority below lets this one precede.
// g_taken holds the process's own copies for as long as it lives. A worker's run sets its own
// values beside them instead of over them: the copies must stay reachable through a variable that
// is read, or the compiler drops the stores of a write-only array, and a leak checker at a
// worker's exit (a program built with -fsanitize=address) reports the copies as leaked.
const char* g_taken[static_cast<int>(DriverVariable::count_)];
const char* g_run_values[static_cast<int>(DriverVariable::count_)];
bool g_run_sets[static_cast<int>(DriverVariable::count_)];

// First among the library's constructors, and the library's run before the program's own.
__attribute__((constructor(101))) void take_driver_variables() {
  for (int i = 0; i < static_cast<int>(DriverVariable::count_); ++i) {
    const char* v = std::getenv(kNames[i]);
    if (!v) continue;
    g_taken[i] = strdup(v);  // unsetenv may drop the string setenv had made
    unsetenv(kNames[i]);
  }
}

}  // namespace

const char* driver_variable(DriverVariable v) {
  const int i = static_cast<int>(v);
  return g_run_sets[i] ? g_run_values[i] : g_taken[i];
}

void set_driver_variable(DriverVariable v, const char* value) {
  const int i = static_cast<int>(v);
  g_run_values[i] = value;
  g_run_sets[i] = true;
}

ProgramOptions program_options_from_environment() {
  ProgramOptions o;
  try {
    if (const char* s = driver_variable(DriverVariable::options)) parse_program_options(s, o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bsp-check: error: BSPCHECK_OPTIONS: %s\n", e.what());
    std::_Exit(2);
  }
  o.run.echo_output = true;
  o.run.capture_output = false;
  if (const char* s = driver_variable(DriverVariable::prefix)) o.run.output_prefix = s;
  if (const char* s = driver_variable(DriverVariable::report)) o.report_file = s;
  if (const char* s = driver_variable(DriverVariable::repro)) o.repro_command = s;
  return o;
}

}  // namespace bspcheck::rt
