// The rule catalogue (include/bspcheck/rules.def) and the lookups generated from it, and that
// the checker takes every rule's severity and statement from it.
#include <bspcheck/rules.hpp>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "checker/diagnostics.hpp"
#include "checker/finding_text.hpp"
#include "checker/suppressions.hpp"

using bspcheck::all_rules;
using bspcheck::find_rule;
using bspcheck::Rule;
using bspcheck::RuleInfo;

namespace {

// Lower-case words of letters and digits joined by single hyphens, starting with a letter.
// (By hand: GCC 12's std::regex trips -Wmaybe-uninitialized in sanitizer builds.)
bool is_kebab_case(const std::string& id) {
  if (id.empty() || id.front() < 'a' || id.front() > 'z' || id.back() == '-') return false;
  for (std::size_t i = 0; i < id.size(); ++i) {
    const char c = id[i];
    const bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!word && !(c == '-' && id[i - 1] != '-')) return false;
  }
  return true;
}

}  // namespace

// The lookups are constexpr: a rule id can be checked at compile time.
static_assert(bspcheck::is_known_rule("bounds-put") && !bspcheck::is_known_rule("no-such-rule"));
static_assert(bspcheck::rule_severity(Rule::put_collision) == bspcheck::Severity::warning);

TEST(RuleCatalogue, IdsAndEnumNamesAreUnique) {
  std::set<std::string> ids, names;
  for (const RuleInfo& r : all_rules()) {
    EXPECT_TRUE(ids.insert(r.id).second) << "duplicate id " << r.id;
    EXPECT_TRUE(names.insert(r.name).second) << "duplicate enumerator " << r.name;
  }
  EXPECT_EQ(ids.size(), all_rules().size());
}

TEST(RuleCatalogue, IdsAreKebabCaseAndNamesTheirSnakeCase) {
  for (const char* bad : {"", "Bounds-put", "bounds_put", "bounds--put", "bounds-", "-bounds", "1bounds", "bounds put"})
    EXPECT_FALSE(is_kebab_case(bad)) << "'" << bad << "'";
  for (const RuleInfo& r : all_rules()) {
    EXPECT_TRUE(is_kebab_case(r.id)) << r.id;
    std::string snake = r.id;
    for (char& c : snake)
      if (c == '-') c = '_';
    EXPECT_EQ(snake, r.name) << "the enumerator of " << r.id;
  }
}

TEST(RuleCatalogue, LookupsRoundTrip) {
  for (const RuleInfo& r : all_rules()) {
    const RuleInfo* by_id = find_rule(r.id);
    ASSERT_NE(by_id, nullptr) << r.id;
    EXPECT_EQ(by_id, &r);
    EXPECT_EQ(&bspcheck::rule_info(r.rule), &r) << r.id;
    EXPECT_STREQ(bspcheck::rule_id(r.rule), r.id);
    EXPECT_EQ(bspcheck::rule_severity(r.rule), r.severity) << r.id;
    EXPECT_TRUE(bspcheck::is_known_rule(r.id));
  }
  for (const char* unknown : {"", "*", "bounds", "bounds-put ", "Bounds-Put", "bounds_put"})
    EXPECT_FALSE(bspcheck::is_known_rule(unknown)) << "'" << unknown << "'";
}

TEST(RuleCatalogue, EveryRowIsFilledIn) {
  for (const RuleInfo& r : all_rules()) {
    const std::string statement = r.statement, source = r.source, help = r.help;
    EXPECT_FALSE(statement.empty()) << r.id;
    EXPECT_NE(statement.back(), '.') << r.id << ": the statement is one sentence without a full stop";
    EXPECT_EQ(statement.find("(BSPlib"), std::string::npos) << r.id << ": the source goes in its own column";
    EXPECT_TRUE(source.starts_with("BSPlib ") || source == "bsp-check") << r.id << ": source '" << source << "'";
    EXPECT_FALSE(help.empty()) << r.id;
    EXPECT_STRNE(bspcheck::category_name(r.category), "?") << r.id;
  }
}

TEST(RuleCatalogue, StatementTextCitesThePaperOnly) {
  const RuleInfo& bounds = bspcheck::rule_info(Rule::bounds_put);
  EXPECT_EQ(bspcheck::rule_statement_text(bounds), std::string(bounds.statement) + " (BSPlib 3.2.4 (3))");
  const RuleInfo& crash = bspcheck::rule_info(Rule::crash);
  EXPECT_EQ(bspcheck::rule_statement_text(crash), crash.statement);
}

TEST(RuleCatalogue, ReservedRulesAreTheOnesNeverRaised) {
  // expect-mismatch is the one id accepted but not raised yet; tests/rules checks the rest.
  for (const RuleInfo& r : all_rules()) EXPECT_EQ(r.reserved, r.rule == Rule::expect_mismatch) << r.id;
}

// The checker prints every rule's statement and gives it its catalogue severity (the runtime's own
// list once lacked hp-dst-read, get-dst-early-read, hpmove-stale and the divergences).
TEST(RuleCatalogue, DiagnosticsTakeSeverityAndStatementFromIt) {
  for (const RuleInfo& r : all_rules()) {
    bspcheck::checker::Diagnostics d;
    bspcheck::Finding f;
    f.rule = r.id;
    f.severity = r.severity == bspcheck::Severity::error ? bspcheck::Severity::warning : bspcheck::Severity::error;
    ASSERT_TRUE(d.report(f)) << r.id;
    EXPECT_EQ(d.findings().back().severity, r.severity) << r.id;
    EXPECT_EQ(d.errors(), r.severity == bspcheck::Severity::error ? 1u : 0u) << r.id;
    const std::string text = bspcheck::checker::render_finding(d.findings().back(), "");
    EXPECT_NE(text.find(std::string("[") + r.id + "]"), std::string::npos) << text;
    EXPECT_NE(text.find("  rule: " + bspcheck::rule_statement_text(r) + "\n"), std::string::npos) << text;
  }
}

// A finding repeated at the same locations (a warning in every superstep of a long loop) is kept
// up to kKeptRepeats times, so that a run's memory does not grow with its supersteps; every
// repeat still counts towards the run's errors, and another location is kept anew.
TEST(RuleCatalogue, DiagnosticsKeepABoundedNumberOfRepeats) {
  using bspcheck::checker::Diagnostics;
  Diagnostics d;
  bspcheck::Finding f;
  f.rule = "bounds-put";
  f.locations = {bspcheck::Location{"loop.c", 7, 0, "bsp_put", {}, {}}};
  const std::size_t n = Diagnostics::kKeptRepeats + 500;
  for (std::size_t i = 0; i < n; ++i) {
    f.superstep = static_cast<int>(i);  // one a superstep
    ASSERT_TRUE(d.report(f));
  }
  EXPECT_EQ(d.findings().size(), Diagnostics::kKeptRepeats);
  EXPECT_EQ(d.errors(), n);
  f.locations[0].line = 8;
  ASSERT_TRUE(d.report(f));
  EXPECT_EQ(d.findings().size(), Diagnostics::kKeptRepeats + 1);
  EXPECT_EQ(d.findings().back().locations[0].line, 8);
  // One superstep's findings at one line (one per process) are kept whole, however many.
  Diagnostics many;
  f.superstep = 3;
  for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(many.report(f));
  EXPECT_EQ(many.findings().size(), n);
}

TEST(RuleCatalogue, SuppressionsAcceptEveryIdAndNothingElse) {
  std::string text;
  for (const RuleInfo& r : all_rules()) text += std::string(r.id) + " file.c:3\n";
  EXPECT_NO_THROW(bspcheck::checker::Suppressions::parse(text, "all.supp"));
  EXPECT_THROW(bspcheck::checker::Suppressions::parse("bounds-putt\n", "typo.supp"), std::runtime_error);
}
