#include "tools/list_rules_command.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <iostream>

#include "bspcheck/rules.hpp"
#include "tools/cli_parse.hpp"

namespace bspcheck::cli {

namespace {

// One object per rule with every column of the catalogue.
nlohmann::json rules_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const RuleInfo& r : all_rules())
    out.push_back({{"id", r.id},
                   {"name", r.name},
                   {"severity", severity_name(r.severity)},
                   {"category", category_name(r.category)},
                   {"statement", r.statement},
                   {"source", r.source},
                   {"help", r.help},
                   {"reserved", r.reserved}});
  return out;
}

// Aligned columns: id, severity, and the statement as findings print it.
void print_rules_table(std::ostream& out) {
  std::size_t id_width = std::strlen("RULE");
  for (const RuleInfo& r : all_rules()) id_width = std::max(id_width, std::strlen(r.id));
  const std::size_t severity_width = std::strlen("SEVERITY");
  auto row = [&](const std::string& id, const std::string& severity, const std::string& statement) {
    out << id << std::string(id_width - id.size() + 2, ' ') << severity
        << std::string(severity_width - severity.size() + 2, ' ') << statement << "\n";
  };
  row("RULE", "SEVERITY", "STATEMENT");
  for (const RuleInfo& r : all_rules())
    row(r.id, severity_name(r.severity), (r.reserved ? "(reserved) " : "") + rule_statement_text(r));
}

}  // namespace

int list_rules_command(const std::vector<std::string>& args) {
  CLI::App app{"bsp-check --list-rules: every rule id with its severity and what it says (docs/checks.md explains each)",
               "bsp-check --list-rules"};
  bool json = false;
  app.add_flag("--json", json, "a JSON array of objects, one per rule, with every column of the rule catalogue");
  if (auto status = parse_arguments(app, {args.begin() + 1, args.end()})) return *status;
  if (json)
    std::cout << rules_json().dump(2) << "\n";
  else
    print_rules_table(std::cout);
  return 0;
}

}  // namespace bspcheck::cli
