// The options table (runtime/options/options.def) as properties: whatever options a run is given, the
// string printed for it reads back to the same options, holds only what differs from the
// defaults, and keeps the checker's part intact; a bad value is refused with a message naming
// its key.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bspcheck/rules.hpp"
#include "runtime/options/option_list.hpp"
#include "runtime/options/options.hpp"

namespace rt = bspcheck::rt;

namespace {

// Keys of the table, minus report= (its check creates the file).
std::vector<std::string> keys() {
  std::vector<std::string> k;
  for (const rt::OptionInfo& o : rt::option_table())
    if (std::string(o.key) != "report" && std::string(o.key) != "guide_log") k.push_back(o.key);  // they create files
  return k;
}

// Values of every syntax the table has, valid and not: each key meets all of them.
rc::Gen<std::string> value_text() {
  std::vector<std::string> rules;
  for (const bspcheck::RuleInfo& r : bspcheck::all_rules()) rules.push_back(r.id);
  return rc::gen::oneOf(
      rc::gen::map(rc::gen::arbitrary<std::uint64_t>(), [](std::uint64_t n) { return std::to_string(n); }),
      rc::gen::map(rc::gen::inRange(0, 5000), [](int n) { return std::to_string(n); }),
      rc::gen::map(rc::gen::pair(rc::gen::inRange(0, 2000), rc::gen::element<std::string>("k", "m", "g", "K", "x", "")),
                   [](const std::pair<int, std::string>& p) { return std::to_string(p.first) + p.second; }),
      rc::gen::map(rc::gen::inRange(0, 100000), [](int n) { return std::to_string(n / 100.0); }),
      rc::gen::element<std::string>("0", "1", "-1", "true", "no", "0x1F", "0xg", "", " 1", "1e3", "nan", "random",
                                    "round_robin", "round-robin", "pct", "private", "shared", "a/b.supp", "[%p] ",
                                    "14/51/cwd/first.txt", "0/short/tmp/x", "3/absent/tmpdir/a/b", "3/256/cwd/x",
                                    "1/x/cwd/a", "1/2/"),
      rc::gen::map(rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(rules)),
                   [](const std::vector<std::string>& v) {
                     std::string s;
                     for (const std::string& r : v) s += (s.empty() ? "" : ",") + r;
                     return s;
                   }));
}

}  // namespace

RC_GTEST_PROP(OptionsTable, PrintedOptionsReadBackTheSame, ()) {
  const auto items = *rc::gen::container<std::vector<std::pair<std::string, std::string>>>(
      rc::gen::pair(rc::gen::elementOf(keys()), value_text()));
  rt::ProgramOptions o;
  for (const auto& [key, value] : items) {
    try {
      rt::set_program_option(o, key, value);
    } catch (const std::invalid_argument& e) {
      // Refused: one message that names the key first.
      RC_ASSERT(std::string(e.what()).rfind(key + ": ", 0) == 0);
    }
  }
  const std::string all = rt::format_program_options(o, rt::OptionScope::all);
  const rt::ProgramOptions back = rt::parse_program_options(all);
  RC_ASSERT(rt::format_program_options(back, rt::OptionScope::all) == all);
  RC_ASSERT(back.run.seed == o.run.seed);
  RC_ASSERT(back.run.disabled_rules == o.run.disabled_rules);
  RC_ASSERT(back.timeout_seconds == o.timeout_seconds);
  // Minimal: every item but seed and procs differs from the default.
  const std::string defaults = rt::format_program_options(rt::ProgramOptions{}, rt::OptionScope::all);
  for (const auto& [key, value] : rt::parse_key_values(all)) {
    if (key == "seed" || key == "procs") continue;
    RC_ASSERT(defaults.find(key + "=" + value) == std::string::npos);
  }
  // The checker's part, as a trace header keeps it, gives the same checker options.
  const rt::ProgramOptions checks = rt::parse_program_options(rt::format_program_options(o, rt::OptionScope::checker));
  RC_ASSERT(checks.run.werror == o.run.werror);
  RC_ASSERT(checks.run.checks == o.run.checks);
  RC_ASSERT(checks.run.time_jitter == o.run.time_jitter);
  RC_ASSERT(checks.run.disabled_rules == o.run.disabled_rules);
  RC_ASSERT(checks.run.suppressions_file == o.run.suppressions_file);
}

// Seconds far below a microsecond print in full and read back as the same double (the options
// fuzzer found 4e-105 printed as "0.000000", which reads back as no time limit at all).
TEST(OptionsTable, SecondsReadBackTheSame) {
  for (const char* text : {"0.001", "0.0010000000000000002", "0.1", "9999999.999999998"}) {
    rt::ProgramOptions o;
    rt::set_program_option(o, "timeout", text);
    ASSERT_GT(o.timeout_seconds, 0.0) << text;
    const rt::ProgramOptions back = rt::parse_program_options(rt::format_program_options(o, rt::OptionScope::all));
    EXPECT_EQ(back.timeout_seconds, o.timeout_seconds) << text;
  }
}

// A timeout below 1 ms is no limit a run could keep (it once meant: none at all): refused.
TEST(OptionsTable, TinySecondsAreRefused) {
  for (const char* text : {"0.0000000000000000000000000000000000000000000000000000000004099278089723952984",
                           "2.2250738585072014e-308", "1e-300", "0.0009999"}) {
    rt::ProgramOptions o;
    EXPECT_THROW(rt::set_program_option(o, "timeout", text), std::invalid_argument) << text;
  }
}

// A key given twice is refused, naming it; a list's items add up.
TEST(OptionsTable, KeyGivenTwice) {
  EXPECT_THROW(rt::parse_program_options("procs=2:procs=3"), std::invalid_argument);
  try {
    rt::parse_program_options("seed=1:werror=1:werror=0");
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "werror: given twice; give each key once");
  }
  EXPECT_EQ(rt::parse_program_options("disable=put-collision:disable=reg-leak").run.disabled_rules.size(), 2u);
}

TEST(OptionsTable, DefaultsPrintOnlySeedAndProcs) {
  EXPECT_EQ(rt::format_program_options(rt::ProgramOptions{}, rt::OptionScope::reproduce), "seed=1:procs=4");
  EXPECT_EQ(rt::format_program_options(rt::ProgramOptions{}, rt::OptionScope::checker), "");
}

TEST(OptionsTable, ReproduceLeavesSessionOptionsOut) {
  const rt::ProgramOptions o =
      rt::parse_program_options("seed=9:procs=3:stack=1m:werror=1:prefix=x:trace=t.trace:guide=g");
  EXPECT_EQ(rt::format_program_options(o, rt::OptionScope::reproduce), "seed=9:procs=3:stack=1m:werror=1");
  EXPECT_EQ(rt::format_program_options(o, rt::OptionScope::checker), "werror=1");
}

TEST(OptionsTable, BadValuesNameKeyValueAndWhatIsAllowed) {
  const std::pair<const char*, const char*> cases[] = {
      {"seed=-1", "seed: expected a whole number from 0 to 9223372036854775807, or 0x hex, got '-1'"},
      {"procs=0", "procs: must be at least 1, got 0"},
      {"procs=-1", "procs: expected a whole number from 1 to 2147483647, got '-1'"},
      {"stack=8k", "stack: expected a size from 16k to 1024m (a number of bytes with an optional k, m or g), got '8k'"},
      {"timeout=nan", "timeout: expected 0 (none) or seconds from 0.001 to 10000000, got 'nan'"},
      {"strategy=dfs", "strategy: expected random, round_robin or pct, got 'dfs'"},
      {"disable=no-such-rule", "disable: unknown rule 'no-such-rule'"},
      {"bogus=1", "unknown option 'bogus'"},
  };
  for (const auto& [text, message] : cases) {
    try {
      rt::parse_program_options(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), message);
    }
  }
}

TEST(OptionsTable, EveryRowHasHelpAndSyntax) {
  for (const rt::OptionInfo& o : rt::option_table()) {
    EXPECT_NE(std::string(o.help), "") << o.key;
    EXPECT_NE(o.syntax, "") << o.key;
    EXPECT_EQ(rt::find_option(o.key), &o);
  }
}

// bsp-check run's probes of hpput destinations (docs/checks.md, "ASan-only rules"): a file name
// with the option string's separators reads back whole; a probe cut short is refused.
TEST(OptionsTable, HpRaceProbesReadBackWithAnyFileName) {
  rt::ProgramOptions o;
  o.run.hp_race_probes = {{2, 1, 0, 8, 4, 0, 17, "/src/a:b,c%d/x.c"}, {3, 0, 5, 0, 64, 2, 0, ""}};
  const std::string text = rt::format_program_options(o, rt::OptionScope::checker);
  EXPECT_EQ(text, "hp_race_probe=2/1/0/8/4/0/17//src/a%3Ab%2Cc%25d/x.c,3/0/5/0/64/2/0/");
  EXPECT_EQ(rt::parse_program_options(text).run.hp_race_probes, o.run.hp_race_probes);
  for (const char* bad :
       {"hp_race_probe=2/1/0/8/4/0", "hp_race_probe=2/1/0/8/0/0/1/a.c", "hp_race_probe=2/1/0/8/4/0/1/a%41"})
    EXPECT_THROW(rt::parse_program_options(bad), std::invalid_argument) << bad;
}
