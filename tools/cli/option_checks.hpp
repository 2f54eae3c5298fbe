// option_checks.hpp: the checks every option value of bsp-check and its subcommands goes through
// before it is used. CLI11's own numeric validators convert first (so "-1" wraps into a uint64_t)
// and print their bounds as raw doubles (DBL_MAX in 309 digits); these look at the text as typed
// and say in one line what is allowed.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/options/option_values.hpp"
#include "runtime/options/options.hpp"

namespace bspcheck::cli {

// A whole decimal number from min to max, no sign, no spaces, no suffix.
CLI::Validator whole_number(std::uint64_t min, std::uint64_t max);
// A finite decimal number from min to max (seconds, costs).
CLI::Validator real_number(double min, double max, const std::string& unit = "");

// The value of `text` as a whole number in [min, max], or nothing (for checks outside CLI11).
std::optional<std::uint64_t> parse_whole_number(const std::string& text, std::uint64_t min, std::uint64_t max);

// The value check and the help text of a BSPCHECK_OPTIONS key, for the flag that sets it: the
// options table (runtime/options/options.def) is the one place of both.
CLI::Validator option_value(const std::string& key);
std::string option_help(const std::string& key);

// Registers on app the flag of every row of the options table that has one (its FLAG column),
// except the keys in `own` (flags the command registers its own way): syntax, range, default and
// help come from the row, and the value is set into `into` by the row's parser. A boolean row's
// flag takes no value and turns the option from its default ("--werror", "--no-check"); a list
// row's flag may be repeated or take a comma-separated list ("--disable").
void add_option_flags(CLI::App& app, rt::ProgramOptions& into, const std::vector<std::string>& own);

// A file a command writes (--json, --sarif, --junit): not empty and not "-" (reports go to files
// only; "-" would name a file called '-', not standard output).
CLI::Validator output_file();

// Why `path` cannot be created or written (an empty string when it can), without leaving a file
// behind when it did not exist.
std::string why_not_writable(const std::string& path);

// Why `dir`, given as --trace-dir, cannot take the traces a command keeps (an empty string when
// it can): the one-line error, for run and explore alike. The kept trace's path is passed to the
// program as trace=DIR/NAME in BSPCHECK_OPTIONS, whose ':' separates options, so a ':' anywhere
// is refused; and when `must_exist` (a trace will be kept there), DIR must be a directory.
std::string why_not_trace_dir(const std::string& dir, bool must_exist);

// Limits shared by the commands (and docs/cli.md).
constexpr std::uint64_t kMaxSeeds = 1000000000000ull;    // runs per p: far beyond any session
constexpr std::uint64_t kMaxSeed = rt::SeedValue::kMax;  // seed + seeds must not wrap

}  // namespace bspcheck::cli
