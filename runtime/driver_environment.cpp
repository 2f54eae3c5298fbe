#include "runtime/driver_environment.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

namespace bspcheck::rt {

namespace {

constexpr const char* kNames[] = {"BSPCHECK_OPTIONS", "BSPCHECK_REPORT", "BSPCHECK_REPRO", "BSPCHECK_PREFIX"};
static_assert(sizeof kNames / sizeof kNames[0] == static_cast<int>(DriverVariable::count_));

// Plain pointers, zero before any constructor runs: read by other constructors of the library
// (engine/virtual_clock.cpp), which the priority below lets this one precede. g_values is what
// is read: the process's own values, kept in g_taken (which a worker's run does not replace, so
// they stay reachable for the leak checker), or a worker's run's.
const char* g_taken[static_cast<int>(DriverVariable::count_)];
const char* g_values[static_cast<int>(DriverVariable::count_)];

// First among the library's constructors, and the library's run before the program's own.
__attribute__((constructor(101))) void take_driver_variables() {
  for (int i = 0; i < static_cast<int>(DriverVariable::count_); ++i) {
    const char* v = std::getenv(kNames[i]);
    if (!v) continue;
    g_values[i] = g_taken[i] = strdup(v);  // unsetenv may drop the string setenv had made
    unsetenv(kNames[i]);
  }
}

}  // namespace

const char* driver_variable(DriverVariable v) { return g_values[static_cast<int>(v)]; }

void set_driver_variable(DriverVariable v, const char* value) { g_values[static_cast<int>(v)] = value; }

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
