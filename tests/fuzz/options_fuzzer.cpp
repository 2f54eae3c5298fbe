// libFuzzer target for BSPCHECK_OPTIONS parsing (runtime/options/options.cpp, parse_program_options).
//
// Every input is an option string such as "seed=7:procs=4:disable=put-collision". The parser may
// refuse it only with std::invalid_argument (the runtime prints its message and exits 2); any
// other exception, a crash or a sanitizer report is a bug. An accepted string must give values
// inside the documented ranges (docs/cli.md), so that no later stage sees a wrapped or absurd one.
//
// Built and run by run_options_fuzzer.sh (clang++ -fsanitize=fuzzer,address,undefined).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "runtime/options/options.hpp"

namespace {

[[noreturn]] void bug(const char* what, const std::string& input) {
  std::fprintf(stderr, "options_fuzzer: invariant violated: %s for '%s'\n", what, input.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // report= checks that the file can be written by creating it: not something to do with
  // random paths. The check itself is covered by tests/robustness.
  if (text.find("report=") != std::string::npos) return 0;
  bspcheck::rt::ProgramOptions o;
  try {
    o = bspcheck::rt::parse_program_options(text);
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).empty()) bug("an empty message", text);
    return 0;
  }
  if (o.run.procs < 1) bug("procs below 1", text);
  if (!std::isfinite(o.timeout_seconds) || o.timeout_seconds < 0 || o.timeout_seconds > 1e7) bug("timeout out of range", text);
  if (o.exitcode < 0 || o.exitcode > 255) bug("exitcode out of range", text);
  if (o.run.stack_size > (std::size_t{1} << 30)) bug("stack above 1g", text);
  if (o.run.break_process < 0 || o.run.break_superstep < -1) bug("negative break point", text);
  // The printed string reads back to the same options (the table's printer and parser agree).
  const std::string printed = bspcheck::rt::format_program_options(o, bspcheck::rt::OptionScope::all);
  bspcheck::rt::ProgramOptions back;
  try {
    back = bspcheck::rt::parse_program_options(printed);
  } catch (const std::invalid_argument& e) {
    bug("the printed options do not parse", printed);
  }
  if (bspcheck::rt::format_program_options(back, bspcheck::rt::OptionScope::all) != printed)
    bug("the printed options do not read back", printed);
  return 0;
}
