// options.hpp: run options of a program linked with the runtime, read from BSPCHECK_OPTIONS
// ("seed=7:procs=4:stack=256k"), the way sanitizers read theirs.
#pragma once

#include <cstdint>
#include <string>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::rt {

struct ProgramOptions {
  Options run;                  // the same options as the in-process API
  double timeout_seconds = 0;   // 0 = none
  std::string report_file;      // JSON report for the bsp-check driver
  std::string repro_command;    // how to reproduce this run, printed with findings
  int exitcode = 1;             // exit status when error findings were reported
  bool private_globals = true;  // each process its own copy of the executable's globals
  bool globals_chosen = false;  // globals= was given: a dialect's default (MulticoreBSP: shared) does not apply
  std::size_t globals_remap_at = 192 * 1024;  // data of this size or more is remapped (measured crossover)
};

// Parses "key=value:key=value". Unknown keys or bad values throw std::invalid_argument with a
// message naming the key.
ProgramOptions parse_program_options(const std::string& text);

// Reads BSPCHECK_OPTIONS, BSPCHECK_PREFIX (a prefix may contain ':'), BSPCHECK_REPORT and
// BSPCHECK_REPRO from the environment. On a bad value prints one line and exits with status 2.
ProgramOptions program_options_from_environment();

// "256k", "1m", "65536" -> bytes, at most `max`; a malformed or larger size throws
// std::invalid_argument naming `key`.
std::size_t parse_size(const std::string& text, const std::string& key = "stack", std::size_t max = std::size_t{1} << 30);

}  // namespace bspcheck::rt
