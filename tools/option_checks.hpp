// option_checks.hpp: the checks every option value of bsp-check and its subcommands goes through
// before it is used. CLI11's own numeric validators convert first (so "-1" wraps into a uint64_t)
// and print their bounds as raw doubles (DBL_MAX in 309 digits); these look at the text as typed
// and say in one line what is allowed.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace bspcheck::cli {

// A whole decimal number from min to max, no sign, no spaces, no suffix.
CLI::Validator whole_number(std::uint64_t min, std::uint64_t max);
// A finite decimal number from min to max (seconds, costs).
CLI::Validator real_number(double min, double max, const std::string& unit = "");
// A byte size: a number with an optional k, m or g suffix, from min to max bytes.
CLI::Validator byte_size(std::uint64_t min, std::uint64_t max);

// The value of `text` as a whole number in [min, max], or nothing (for checks outside CLI11).
std::optional<std::uint64_t> parse_whole_number(const std::string& text, std::uint64_t min, std::uint64_t max);
// The bytes of a size such as 256k, or nothing when it is malformed or exceeds max.
std::optional<std::uint64_t> parse_byte_size(const std::string& text, std::uint64_t max);

// The value check and the help text of a BSPCHECK_OPTIONS key, for the flag that sets it: the
// options table (runtime/options.def) is the one place of both.
CLI::Validator option_value(const std::string& key);
std::string option_help(const std::string& key);

// Why `path` cannot be created or written (an empty string when it can), without leaving a file
// behind when it did not exist.
std::string why_not_writable(const std::string& path);

// Limits shared by the commands (and docs/cli.md).
constexpr std::uint64_t kMaxSeeds = 1000000000000ull;    // runs per p: far beyond any session
constexpr std::uint64_t kMaxSeed = UINT64_MAX / 2;       // seed + seeds must not wrap
constexpr double kMaxTimeoutSeconds = 1e7;               // about 115 days
constexpr std::uint64_t kMinStackBytes = 16 << 10;
constexpr std::uint64_t kMaxStackBytes = std::uint64_t{1} << 30;

}  // namespace bspcheck::cli
