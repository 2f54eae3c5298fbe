// run_command.hpp: `bsp-check run`: the program under many seeds and process counts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bspcheck::cli {

struct RunConfig {
  std::vector<int> procs;         // processors available, one set of runs each
  std::string procs_text;         // as given, for messages
  std::uint64_t seed = 1;
  std::uint64_t seeds = 1;
  bool keep_going = false;
  std::string json_file;
  std::string prefix;
  double timeout = 0;             // seconds per run, 0 = none
  std::string stack_size;         // passed through, e.g. "256k"
  std::string strategy = "random";
  bool verbose = false;           // show the output of every run, not only of failing ones
  bool quiet = false;             // no progress lines
  std::string program;
  std::vector<std::string> args;
};

// Returns the exit status: 0 clean, 1 a run failed, 2 bad usage.
int run_command(const RunConfig& config);

}  // namespace bspcheck::cli
