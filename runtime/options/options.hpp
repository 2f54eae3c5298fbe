// options.hpp: the options of a run of a program linked with the runtime, read from
// BSPCHECK_OPTIONS ("seed=7:procs=4:stack=256k") the way sanitizers read theirs. The table of
// options is runtime/options/options.def; this is its interface: parse, print, list.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bspcheck/bspcheck.hpp"
#include "runtime/options/option_values.hpp"

namespace bspcheck::rt {

struct ProgramOptions {
  Options run;                 // the same options as the in-process API
  double timeout_seconds = 0;  // 0 = none
  std::string report_file;     // JSON report for the bsp-check driver
  std::string
      keep_files;  // the run's files are copied into keep_files/p<P>-s<SEED>/ (runtime/isolation/kept_files.hpp)
  std::string watch_file;        // where a file divergence was written (runtime/isolation/file_byte_watch.hpp)
  std::uint64_t watch_byte = 0;  // the byte of watch_file watched
  std::string repro_command;     // how to reproduce this run, printed with findings (BSPCHECK_REPRO)
  int exitcode = 1;              // exit status when error findings were reported
  GlobalsChoice globals = GlobalsChoice::dialect_default;
  std::size_t globals_remap_at = 192 * 1024;  // data of this size or more is remapped (measured crossover)

  // Each process its own copy of the executable's globals? A dialect whose processes are threads
  // (MulticoreBSP) shares them unless globals=private is given.
  bool private_globals(bool dialect_shares_globals) const {
    return globals == GlobalsChoice::private_copies ||
           (globals == GlobalsChoice::dialect_default && !dialect_shares_globals);
  }
};

// Which options a printed option string holds (options.def, SCOPE).
enum class OptionScope {
  reproduce,  // what reproduces the run: the reproduce and checker rows
  checker,    // the checker rows only (a trace header's checker options)
  all,        // every row, session ones too (what the driver passes to one run)
};

// Parses "key=value:key=value" over `into` (so defaults, or earlier options, stay for keys not
// given). Unknown keys or bad values throw std::invalid_argument with one line naming the key,
// the value and what is allowed.
void parse_program_options(const std::string& text, ProgramOptions& into);
ProgramOptions parse_program_options(const std::string& text);
// Sets one option from its text, as parse_program_options does for one item.
void set_program_option(ProgramOptions& o, const std::string& key, const std::string& value);

// The shortest option string that gives `o` the values of `scope`'s rows: the rows whose value
// differs from the default, in the table's order; seed and procs always (a reproduce line names
// its schedule). parse_program_options(format_program_options(o, s)) gives o back on those rows.
std::string format_program_options(const ProgramOptions& o, OptionScope scope);

// One row of the table, for help texts, --list-options and the driver's flag checks.
struct OptionInfo {
  const char* key;
  const char* scope;  // "reproduce", "checker" or "session"
  const char* flag;   // the bsp-check run flag that sets it, or ""
  const char* help;
  std::string syntax;  // what values are allowed
  std::string default_text;
  bool boolean;  // a 0-or-1 option: its flag takes no value and turns it from its default
  bool list;     // a list: given again, it adds to the list
};
const std::vector<OptionInfo>& option_table();
const OptionInfo* find_option(const std::string& key);
// Checks `text` as a value of option `key`: empty when it is valid, else "expected ..., got '...'".
std::string option_value_error(const std::string& key, const std::string& text);

// The `bsp-check run` flags that give a run the options of `o` that reproduce it: the rows of the
// reproduce and checker scopes that have a FLAG and a value other than the default, in the
// table's order, seed and procs aside (a reproduce line names them first, its own way). Each is
// {flag, value}; a boolean row's flag has no value ("--werror", "--no-check").
std::vector<std::pair<std::string, std::string>> reproduce_flags(const ProgramOptions& o);

// "256k", "1m", "65536" -> bytes (the stack option's syntax and range).
std::size_t parse_size(const std::string& text, const std::string& key = "stack");

}  // namespace bspcheck::rt
