// option_values.hpp: the value kinds of the options table (runtime/options/options.def): for each, the
// C++ type it sets, the syntax users may write, a parser that accepts exactly that syntax and
// range (one clear message otherwise), and the printer whose text the parser reads back.
//
// The runtime parses BSPCHECK_OPTIONS with them and the driver checks its flags with them (the
// driver compiles this file in: it does not load the runtime library), so an option has one
// syntax and one range wherever it is given.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::rt {

// Each kind: `type`, `syntax` (what is allowed, for messages and --list-options), and
//   static type parse(const std::string& key, const std::string& text);  // throws std::invalid_argument
//   static std::string format(const type& value);                        // parse(format(v)) == v

// A whole decimal number in [Min, Max]: no sign, no spaces, no suffix ("-1" is not 2^64-1).
template <typename T, std::uint64_t Min, std::uint64_t Max>
struct WholeValue {
  using type = T;
  static std::string syntax();
  static type parse(const std::string& key, const std::string& text);
  static std::string format(const type& v) { return std::to_string(v); }
};
// The number of `text` in [min, max]; throws std::invalid_argument naming key, text and range.
std::uint64_t parse_whole_number(const std::string& key, const std::string& text, std::uint64_t min, std::uint64_t max);

struct SeedValue {  // decimal, or hexadecimal after 0x (a seed printed by another tool)
  using type = std::uint64_t;
  // The largest seed: half the range, so that a session's seeds seed .. seed + seeds - 1 never wrap
  // (the driver's --seed has the same range and message).
  static constexpr std::uint64_t kMax = UINT64_MAX / 2;
  static std::string syntax() { return "a whole number from 0 to 9223372036854775807, or 0x hex"; }
  static type parse(const std::string& key, const std::string& text);
  static std::string format(const type& v) { return std::to_string(v); }
};

struct ProcsValue : WholeValue<int, 1, 2147483647> {  // 0 gets a message of its own
  static type parse(const std::string& key, const std::string& text);
};
using PctDepthValue = WholeValue<int, 1, 1000000>;
using PctStepsValue = WholeValue<std::uint64_t, 1, 1000000000>;
using ExitCodeValue = WholeValue<int, 0, 255>;
using ProcessValue = WholeValue<int, 0, 2147483647>;
using ByteOffsetValue = WholeValue<std::uint64_t, 0, 9223372036854775807>;

struct BreakSuperstepValue {  // a superstep, or -1: never
  using type = int;
  static std::string syntax() { return "a superstep from 0 to 2147483647, or -1 (never)"; }
  static type parse(const std::string& key, const std::string& text);
  static std::string format(const type& v) { return std::to_string(v); }
};

// A byte size: a whole number with an optional k, m or g (binary units), in [Min, Max].
template <std::uint64_t Min, std::uint64_t Max>
struct SizeValue {
  using type = std::size_t;
  static std::string syntax();
  static type parse(const std::string& key, const std::string& text);
  static std::string format(const type& v);
};
using StackSizeValue = SizeValue<16 << 10, std::uint64_t{1} << 30>;
using RemapSizeValue = SizeValue<0, std::uint64_t{1} << 40>;

struct SecondsValue {  // a finite decimal number of seconds: 0 (none), or from 1 ms (less is no limit at all)
  using type = double;
  static constexpr double kMinSeconds = 0.001;
  static std::string syntax() { return "0 (none) or seconds from 0.001 to 10000000"; }
  static type parse(const std::string& key, const std::string& text);
  static std::string format(const type& v);
};

struct BoolValue {
  using type = bool;
  static std::string syntax() { return "0 or 1 (or false/true, no/yes)"; }
  static type parse(const std::string& key, const std::string& text);
  static std::string format(const type& v) { return v ? "1" : "0"; }
};

struct TextValue {  // any text without ':' (the separator of BSPCHECK_OPTIONS)
  using type = std::string;
  static std::string syntax() { return "text without ':'"; }
  static type parse(const std::string& key, const std::string& text);
  static std::string format(const type& v) { return v; }
};
struct PathValue : TextValue {
  static std::string syntax() { return "a path without ':'"; }
  static type parse(const std::string& key, const std::string& text);
};
// A path the run will write at its end: refused at the start when it cannot be written.
struct WritablePathValue : PathValue {
  static type parse(const std::string& key, const std::string& text);
};

struct StrategyValue {
  using type = Strategy;
  static std::string syntax();  // the names, e.g. "random, round_robin or pct"
  static type parse(const std::string& key, const std::string& text);
  static std::string format(const type& v);
};

enum class GlobalsChoice {
  dialect_default,  // private, except for a dialect whose processes are threads (MulticoreBSP)
  private_copies,   // each process its own copy, as separate processes
  shared,           // one copy for all processes
};
struct GlobalsValue {
  using type = GlobalsChoice;
  static std::string syntax() { return "private or shared"; }
  static type parse(const std::string& key, const std::string& text);
  static std::string format(const type& v);
};

struct RuleListValue {  // rule ids of the catalogue, comma-separated
  using type = std::vector<std::string>;
  static std::string syntax() { return "rule ids, comma-separated"; }
  static type parse(const std::string& key, const std::string& text);
  static std::string format(const type& v);
};

struct ExpectedLineValue {  // PROCESS/STREAM/LINE/DIGEST, DIGEST in hex or "none" (Options::expected_line)
  using type = ExpectedLine;
  static std::string syntax() { return "process/stream/line/digest"; }
  static type parse(const std::string& key, const std::string& text);
  static std::string format(const type& v);
};

// A file divergence's reference byte (Options::expected_file).
struct ExpectedFileByteValue {  // OFFSET/STATE/NAME, STATE 0-255, "short" or "absent"
  using type = ExpectedFileByte;
  static std::string syntax() { return "offset/state/name (state: 0-255, short or absent; name: cwd/..., tmp/...)"; }
  static type parse(const std::string& key, const std::string& text);
  static std::string format(const type& v);
};

// bsp-check run's probes of hpput destinations (Options::hp_race_probes), comma-separated, each
// SUPERSTEP/TARGET/SLOT/OFFSET/NBYTES/CALLER/LINE/FILE; in FILE, '%', ':' and ',' are written %25,
// %3A and %2C. One probe alone is also what RunReport::hp_race_probes holds.
struct HpRaceProbeListValue {
  using type = std::vector<HpRaceProbe>;
  static std::string syntax() {
    return "comma-separated probes, each superstep/target/slot/offset/size/caller/line/file";
  }
  static type parse(const std::string& key, const std::string& text);
  static std::string format(const type& v);
};

struct DigestListValue {  // 64-bit digests in hex, comma-separated (one per process)
  using type = std::vector<std::uint64_t>;
  static std::string syntax() { return "hexadecimal digests, comma-separated"; }
  static type parse(const std::string& key, const std::string& text);
  static std::string format(const type& v);
};

}  // namespace bspcheck::rt
