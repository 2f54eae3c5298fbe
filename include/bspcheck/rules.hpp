// rules.hpp: the rule catalogue (rules.def) as C++: the Rule enum and each rule's metadata.
//
// Lives under include/ because every layer names rules: the runtime raises api-misuse and the
// registration rules, the checker the multi-call ones, replay replay-divergence, and the driver
// lists, validates and reports them (it does not link the runtime: all of this is inline).
// Finding::rule stays the id string, the stable form users, reports and traces see.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <string_view>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck {

enum class Rule : std::uint8_t {
#define BSPCHECK_RULE(ID, NAME, SEVERITY, CATEGORY, STATEMENT, SOURCE, HELP, RESERVED) NAME,
#include "bspcheck/rules.def"
#undef BSPCHECK_RULE
};

// Which part of BSPlib, or of checking a run, a rule is about (groups --list-rules and docs).
enum class RuleCategory : std::uint8_t {
  registration,  // bsp_push_reg / bsp_pop_reg
  drma,          // bsp_put / bsp_get
  unbuffered,    // bsp_hpput / bsp_hpget
  bsmp,          // messages: bsp_send, bsp_move, tag sizes
  superstep,     // bsp_sync / bsp_end
  api,           // arguments and call context of any primitive
  program,       // how the program ended: abort, crash, timeout, its output
  level1,        // level-1 library hygiene
  memory,        // per-process memory: variables bsp-check could not make private
  across_runs,   // compares runs: seeds, or a replay with its recording
};

struct RuleInfo {
  Rule rule;
  const char* id;
  const char* name;  // the enumerator's name, e.g. "bounds_put"
  Severity severity;
  RuleCategory category;
  const char* statement;  // without its source
  const char* source;     // "BSPlib <section>" or "bsp-check"
  const char* help;
  bool reserved;
};

inline constexpr RuleInfo kRuleCatalogue[] = {
#define BSPCHECK_RULE(ID, NAME, SEVERITY, CATEGORY, STATEMENT, SOURCE, HELP, RESERVED) \
  {Rule::NAME, ID, #NAME, Severity::SEVERITY, RuleCategory::CATEGORY, STATEMENT, SOURCE, HELP, RESERVED},
#include "bspcheck/rules.def"
#undef BSPCHECK_RULE
};

namespace detail {
constexpr bool rows_in_enum_order() {
  for (std::size_t i = 0; i < std::size(kRuleCatalogue); ++i)
    if (static_cast<std::size_t>(kRuleCatalogue[i].rule) != i) return false;
  return true;
}
}  // namespace detail
static_assert(detail::rows_in_enum_order(), "rule_info indexes the catalogue by the enum");

// Every rule, in catalogue order (the order of docs/checks.md's index).
constexpr std::span<const RuleInfo> all_rules() { return kRuleCatalogue; }

// The rows are in enum order, so a Rule indexes its row.
constexpr const RuleInfo& rule_info(Rule r) { return kRuleCatalogue[static_cast<std::size_t>(r)]; }
constexpr const char* rule_id(Rule r) { return rule_info(r).id; }
constexpr Severity rule_severity(Rule r) { return rule_info(r).severity; }

// The row of a rule id; nullptr when no rule has this id.
constexpr const RuleInfo* find_rule(std::string_view id) {
  for (const RuleInfo& r : kRuleCatalogue)
    if (id == r.id) return &r;
  return nullptr;
}
// Is `id` a rule id, reserved ones included (what --disable and suppression files accept)?
// (A loop of its own, not find_rule() != nullptr: GCC's UBSan makes that comparison non-constant.)
constexpr bool is_known_rule(std::string_view id) {
  for (const RuleInfo& r : kRuleCatalogue)
    if (id == r.id) return true;
  return false;
}

// The one spelling of a severity ("error", "warning"): text, JSON and SARIF levels use it.
constexpr const char* severity_name(Severity s) { return s == Severity::error ? "error" : "warning"; }
// Its inverse; any other name reads as an error (a finding whose severity was lost fails).
constexpr Severity severity_named(std::string_view name) {
  return name == severity_name(Severity::warning) ? Severity::warning : Severity::error;
}

constexpr const char* category_name(RuleCategory c) {
  switch (c) {
    case RuleCategory::registration:
      return "registration";
    case RuleCategory::drma:
      return "drma";
    case RuleCategory::unbuffered:
      return "unbuffered";
    case RuleCategory::bsmp:
      return "bsmp";
    case RuleCategory::superstep:
      return "superstep";
    case RuleCategory::api:
      return "api";
    case RuleCategory::program:
      return "program";
    case RuleCategory::level1:
      return "level1";
    case RuleCategory::memory:
      return "memory";
    case RuleCategory::across_runs:
      return "across-runs";
  }
  return "?";
}

// Does the rule come from the BSPlib paper (and so is cited after its statement)?
constexpr bool cites_bsplib(const RuleInfo& r) { return std::string_view(r.source).starts_with("BSPlib"); }

// The statement as findings print it after "rule: ", with the paper section when there is one:
// "the size of a registration must be nonnegative (BSPlib 3.1.2 (7))".
inline std::string rule_statement_text(const RuleInfo& r) {
  std::string s = r.statement;
  if (cites_bsplib(r)) s += std::string(" (") + r.source + ")";
  return s;
}

}  // namespace bspcheck
