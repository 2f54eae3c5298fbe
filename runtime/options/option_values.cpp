#include "runtime/options/option_values.hpp"

#include "runtime/base/outside_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "bspcheck/rules.hpp"
#include "runtime/options/option_list.hpp"

namespace bspcheck::rt {

namespace {

[[noreturn]] void refuse(const std::string& key, const std::string& allowed, const std::string& text) {
  throw std::invalid_argument(key + ": expected " + allowed + ", got '" + text + "'");
}

// The strategies by name: the one list of their names (trace headers and docs use them too).
struct StrategyName {
  Strategy strategy;
  const char* name;
};
constexpr StrategyName kStrategies[] = {
    {Strategy::random, "random"},
    {Strategy::round_robin, "round_robin"},
    {Strategy::pct, "pct"},
};

std::string size_text(std::uint64_t bytes) {
  if (bytes == 0) return "0";
  if (bytes % (1 << 20) == 0) return std::to_string(bytes >> 20) + "m";
  if (bytes % (1 << 10) == 0) return std::to_string(bytes >> 10) + "k";
  return std::to_string(bytes);
}

}  // namespace

std::uint64_t parse_whole_number(const std::string& key, const std::string& text, std::uint64_t min,
                                 std::uint64_t max) {
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || ec != std::errc() ||
      end != text.data() + text.size() || n < min || n > max)
    refuse(key, "a whole number from " + std::to_string(min) + " to " + std::to_string(max), text);
  return n;
}

template <typename T, std::uint64_t Min, std::uint64_t Max>
std::string WholeValue<T, Min, Max>::syntax() {
  return "a whole number from " + std::to_string(Min) + " to " + std::to_string(Max);
}
template <typename T, std::uint64_t Min, std::uint64_t Max>
T WholeValue<T, Min, Max>::parse(const std::string& key, const std::string& text) {
  return static_cast<T>(parse_whole_number(key, text, Min, Max));
}
template struct WholeValue<int, 1, 2147483647>;
template struct WholeValue<int, 1, 1000000>;
template struct WholeValue<std::uint64_t, 1, 1000000000>;
template struct WholeValue<int, 0, 255>;
template struct WholeValue<int, 0, 2147483647>;
template struct WholeValue<std::uint64_t, 0, 9223372036854775807>;

int ProcsValue::parse(const std::string& key, const std::string& text) {
  if (text == "0") throw std::invalid_argument(key + ": must be at least 1, got 0");
  return WholeValue::parse(key, text);
}

std::uint64_t SeedValue::parse(const std::string& key, const std::string& text) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), n, 16);
    if (ec == std::errc() && end == text.data() + text.size() && n <= kMax) return n;
    refuse(key, syntax(), text);
  }
  try {
    return parse_whole_number(key, text, 0, kMax);
  } catch (const std::invalid_argument&) {
    refuse(key, syntax(), text);
  }
}

int BreakSuperstepValue::parse(const std::string& key, const std::string& text) {
  if (text == "-1") return -1;
  try {
    return static_cast<int>(parse_whole_number(key, text, 0, 2147483647));
  } catch (const std::invalid_argument&) {
    refuse(key, syntax(), text);
  }
}

template <std::uint64_t Min, std::uint64_t Max>
std::string SizeValue<Min, Max>::syntax() {
  return "a size from " + size_text(Min) + " to " + size_text(Max) + " (a number of bytes with an optional k, m or g)";
}
template <std::uint64_t Min, std::uint64_t Max>
std::size_t SizeValue<Min, Max>::parse(const std::string& key, const std::string& text) {
  const std::size_t digits = text.find_first_not_of("0123456789");
  const std::string number = text.substr(0, digits), unit = digits == std::string::npos ? "" : text.substr(digits);
  int shift = 0;
  if (unit == "k" || unit == "K") shift = 10;
  else if (unit == "m" || unit == "M") shift = 20;
  else if (unit == "g" || unit == "G") shift = 30;
  else if (!unit.empty()) refuse(key, syntax(), text);
  std::uint64_t n = 0;
  try {
    n = parse_whole_number(key, number, 0, Max >> shift) << shift;
  } catch (const std::invalid_argument&) {
    refuse(key, syntax(), text);
  }
  if (n < Min) refuse(key, syntax(), text);
  return static_cast<std::size_t>(n);
}
template <std::uint64_t Min, std::uint64_t Max>
std::string SizeValue<Min, Max>::format(const std::size_t& v) {
  return size_text(v);
}
template struct SizeValue<16 << 10, std::uint64_t{1} << 30>;
template struct SizeValue<0, std::uint64_t{1} << 40>;

double SecondsValue::parse(const std::string& key, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const double d = text.empty() ? NAN : std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno != 0 || !std::isfinite(d) || d < 0 || d > 1e7 ||
      text.find_first_of(" \t\n") != std::string::npos || (d > 0 && d < kMinSeconds))
    refuse(key, syntax(), text);
  return d;
}
std::string SecondsValue::format(const double& v) {
  // The shortest decimal the parser reads back as the same double ("0.1", not 0.1000000000000000055).
  // Room for the longest: the least normal double is "0." and 324 more digits. (A 64-byte buffer
  // printed a timeout of 4e-105 s as std::to_string's "0.000000", which reads back as none.)
  char buf[400];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

bool BoolValue::parse(const std::string& key, const std::string& text) {
  // 0 and 1 as printed; the words too, since environment options are often written by hand.
  if (text == "1" || text == "true" || text == "yes") return true;
  if (text == "0" || text == "false" || text == "no") return false;
  refuse(key, syntax(), text);
}

std::string TextValue::parse(const std::string& key, const std::string& text) {
  if (text.find(':') != std::string::npos) refuse(key, syntax(), text);
  return text;
}

std::string PathValue::parse(const std::string& key, const std::string& text) {
  if (text.find(':') != std::string::npos) refuse(key, syntax(), text);
  return text;
}

std::string WritablePathValue::parse(const std::string& key, const std::string& text) {
  PathValue::parse(key, text);
  // An unwritable report would be found only at the end, after the whole run: refuse it now,
  // leaving nothing behind.
  int fd = open_outside(text.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd >= 0) {
    close(fd);
    unlink_outside(text.c_str());
    return text;
  }
  if (errno == EEXIST) fd = open_outside(text.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw std::invalid_argument(key + ": cannot write '" + text + "': " + std::strerror(errno));
  close(fd);
  return text;
}

std::string StrategyValue::syntax() {
  std::string s;
  const std::size_t n = sizeof kStrategies / sizeof kStrategies[0];
  for (std::size_t i = 0; i < n; ++i) s += std::string(i == 0 ? "" : i + 1 == n ? " or " : ", ") + kStrategies[i].name;
  return s;
}
Strategy StrategyValue::parse(const std::string& key, const std::string& text) {
  for (const StrategyName& s : kStrategies)
    if (text == s.name) return s.strategy;
  if (text == "round-robin") return Strategy::round_robin;  // the spelling of the first docs
  // The two searches over runs are not strategies of one run: they choose each run's schedule
  // from the runs before it (docs/exploration.md), which `bsp-check explore` does.
  if (text == "coverage" || text == "bounded")
    throw std::invalid_argument(key + ": '" + text +
                                "' is a search over many runs, not a strategy of one run: use "
                                "bsp-check explore --strategy " +
                                text + " PROGRAM");
  refuse(key, syntax(), text);
}
std::string StrategyValue::format(const Strategy& v) {
  for (const StrategyName& s : kStrategies)
    if (v == s.strategy) return s.name;
  return "?";
}

GlobalsChoice GlobalsValue::parse(const std::string& key, const std::string& text) {
  if (text == "private") return GlobalsChoice::private_copies;
  if (text == "shared") return GlobalsChoice::shared;
  refuse(key, syntax(), text);
}
std::string GlobalsValue::format(const GlobalsChoice& v) {
  return v == GlobalsChoice::shared ? "shared" : v == GlobalsChoice::private_copies ? "private" : "";
}

std::vector<std::string> RuleListValue::parse(const std::string& key, const std::string& text) {
  std::vector<std::string> rules;
  // An empty list, or an empty item (",", "a,,b"), is a mistake, not "no rule".
  if (text.empty() || text.front() == ',' || text.back() == ',' || text.find(",,") != std::string::npos)
    refuse(key, syntax(), text);
  for (const std::string& rule : split_list(text, ',')) {
    if (!is_known_rule(rule)) throw std::invalid_argument(key + ": unknown rule '" + rule + "'");
    rules.push_back(rule);
  }
  return rules;
}
std::string RuleListValue::format(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& r : v) s += (s.empty() ? "" : ",") + r;
  return s;
}

ExpectedLine ExpectedLineValue::parse(const std::string& key, const std::string& text) {
  const std::vector<std::string> parts = split_list(text, '/');
  ExpectedLine e;
  auto number = [&](const std::string& item, auto& out, int base) {
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), out, base);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size()) refuse(key, syntax(), text);
  };
  if (parts.size() != 4) refuse(key, syntax(), text);
  number(parts[0], e.process, 10);
  number(parts[1], e.stream, 10);
  number(parts[2], e.line, 10);
  if (parts[3] == "none") e.reference_has_it = false;
  else number(parts[3], e.digest, 16);
  if (e.process < 0 || (e.stream != 0 && e.stream != 1) || e.line < 1 || parts[3].size() > 16)
    refuse(key, syntax(), text);
  return e;
}
std::string ExpectedLineValue::format(const ExpectedLine& v) {
  if (v.process < 0) return "";
  char digest[17];
  std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(v.digest));
  return std::to_string(v.process) + "/" + std::to_string(v.stream) + "/" + std::to_string(v.line) + "/" +
         (v.reference_has_it ? digest : "none");
}

ExpectedFileByte ExpectedFileByteValue::parse(const std::string& key, const std::string& text) {
  ExpectedFileByte e;
  if (text.empty()) return e;
  const std::size_t a = text.find('/'), b = a == std::string::npos ? a : text.find('/', a + 1);
  if (b == std::string::npos || b + 1 == text.size() || text.find(':') != std::string::npos)
    refuse(key, syntax(), text);
  e.offset = parse_whole_number(key, text.substr(0, a), 0, INT64_MAX);
  const std::string state = text.substr(a + 1, b - a - 1);
  e.state = state == "short"    ? ExpectedFileByte::kFileEndsBefore
            : state == "absent" ? ExpectedFileByte::kFileAbsent
                                : static_cast<int>(parse_whole_number(key, state, 0, 255));
  e.name = text.substr(b + 1);
  return e;
}
std::string ExpectedFileByteValue::format(const ExpectedFileByte& v) {
  if (v.name.empty()) return "";
  const std::string state = v.state == ExpectedFileByte::kFileEndsBefore ? "short"
                            : v.state == ExpectedFileByte::kFileAbsent   ? "absent"
                                                                         : std::to_string(v.state);
  return std::to_string(v.offset) + "/" + state + "/" + v.name;
}

std::vector<std::uint64_t> DigestListValue::parse(const std::string& key, const std::string& text) {
  std::vector<std::uint64_t> digests;
  for (const std::string& item : split_list(text, ',')) {
    std::uint64_t d = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), d, 16);
    if (item.empty() || item.size() > 16 || ec != std::errc() || end != item.data() + item.size())
      refuse(key, syntax(), text);
    digests.push_back(d);
  }
  return digests;
}
std::string DigestListValue::format(const std::vector<std::uint64_t>& v) {
  std::string s;
  char hex[17];
  for (std::uint64_t d : v) {
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(d));
    s += (s.empty() ? "" : ",") + std::string(hex);
  }
  return s;
}

namespace {

std::string escape_probe_file(const std::string& file) {
  std::string out;
  for (char ch : file) {
    if (ch == '%') out += "%25";
    else if (ch == ':') out += "%3A";
    else if (ch == ',') out += "%2C";
    else out += ch;
  }
  return out;
}

std::string unescape_probe_file(const std::string& key, const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    const std::string code = text.substr(i + 1, 2);
    if (code == "25") out += '%';
    else if (code == "3A") out += ':';
    else if (code == "2C") out += ',';
    else refuse(key, HpRaceProbeListValue::syntax(), text);
    i += 2;
  }
  return out;
}

}  // namespace

std::vector<HpRaceProbe> HpRaceProbeListValue::parse(const std::string& key, const std::string& text) {
  std::vector<HpRaceProbe> probes;
  for (const std::string& item : split_list(text, ',')) {
    // The file is the rest after the seventh '/': it may hold '/' itself.
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (int k = 0; k < 7; ++k) {
      const std::size_t slash = item.find('/', start);
      if (slash == std::string::npos) refuse(key, syntax(), text);
      fields.push_back(item.substr(start, slash - start));
      start = slash + 1;
    }
    constexpr std::uint64_t kInt = 0x7fffffff, kLong = 0x7fffffffffffffff;
    HpRaceProbe probe;
    probe.superstep = static_cast<int>(parse_whole_number(key, fields[0], 0, kInt));
    probe.target = static_cast<int>(parse_whole_number(key, fields[1], 0, kInt));
    probe.slot = static_cast<int>(parse_whole_number(key, fields[2], 0, kInt));
    probe.offset = static_cast<long>(parse_whole_number(key, fields[3], 0, kLong));
    probe.nbytes = static_cast<long>(parse_whole_number(key, fields[4], 1, kLong));
    probe.caller = static_cast<int>(parse_whole_number(key, fields[5], 0, kInt));
    probe.line = static_cast<int>(parse_whole_number(key, fields[6], 0, kInt));
    probe.file = unescape_probe_file(key, item.substr(start));
    probes.push_back(std::move(probe));
  }
  return probes;
}

std::string HpRaceProbeListValue::format(const std::vector<HpRaceProbe>& v) {
  std::string s;
  for (const HpRaceProbe& p : v)
    s += (s.empty() ? "" : ",") + std::to_string(p.superstep) + "/" + std::to_string(p.target) + "/" +
         std::to_string(p.slot) + "/" + std::to_string(p.offset) + "/" + std::to_string(p.nbytes) + "/" +
         std::to_string(p.caller) + "/" + std::to_string(p.line) + "/" + escape_probe_file(p.file);
  return s;
}

}  // namespace bspcheck::rt
