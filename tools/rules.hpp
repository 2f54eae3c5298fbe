// rules.hpp: the public rule ids with their severity and one-sentence statement, for the
// driver's reports (SARIF rules, JUnit and summary text). The statements follow
// checker/diagnostics.cpp (rule_statement); the ids are those of design.md, and
// checker::is_known_rule decides what --disable accepts.
#pragma once

#include <string>
#include <vector>

namespace bspcheck::cli {

struct RuleInfo {
  const char* id;
  const char* severity;   // "error" or "warning"
  const char* statement;  // what BSPlib says, one sentence
};

const std::vector<RuleInfo>& all_rules();
// nullptr for an id that is not in the table.
const RuleInfo* find_rule(const std::string& id);

}  // namespace bspcheck::cli
