#include "tools/commands/list_command.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <iostream>

#include "bspcheck/rules.hpp"
#include "runtime/options/options.hpp"
#include "tools/cli/cli_parse.hpp"

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

nlohmann::json options_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const rt::OptionInfo& o : rt::option_table())
    out.push_back({{"key", o.key},
                   {"scope", o.scope},
                   {"flag", o.flag},
                   {"help", o.help},
                   {"syntax", o.syntax},
                   {"default", o.default_text}});
  return out;
}

void print_options_table(std::ostream& out) {
  std::size_t key_width = 3;
  for (const rt::OptionInfo& o : rt::option_table()) key_width = std::max(key_width, std::string(o.key).size());
  out << "BSPCHECK_OPTIONS=key=value:key=value ... (docs/cli.md)\n\n";
  for (const rt::OptionInfo& o : rt::option_table()) {
    const std::string key = o.key;
    out << key << std::string(key_width - key.size() + 2, ' ') << o.help << "\n"
        << std::string(key_width + 2, ' ') << "values: " << o.syntax;
    if (!o.default_text.empty()) out << "; default " << o.default_text;
    if (*o.flag) out << "; bsp-check run " << o.flag;
    out << "\n";
  }
}

// A catalogue command: its only option is --json (the JSON form), else the text table.
int list_command(const std::vector<std::string>& args, const std::string& description, const std::string& name,
                 const std::string& json_help, const std::function<nlohmann::json()>& as_json,
                 const std::function<void(std::ostream&)>& as_table) {
  CLI::App app{description, name};
  bool json = false;
  app.add_flag("--json", json, json_help);
  // Say what the command takes ("bsp-check --list-rules --help" is no command a user would find).
  for (std::size_t i = 1; i < args.size(); ++i)
    if (args[i] != "--json" && args[i] != "--help" && args[i] != "-h") {
      std::cerr << "bsp-check: error: " << args[0] << " takes no argument but --json, got '" << args[i] << "'\n";
      return 2;
    }
  if (auto status = parse_arguments(app, {args.begin() + 1, args.end()})) return *status;
  if (json) std::cout << as_json().dump(2) << "\n";
  else as_table(std::cout);
  return 0;
}

}  // namespace

int list_rules_command(const std::vector<std::string>& args) {
  return list_command(args,
                      "bsp-check --list-rules: every rule id with its severity and what it says (docs/checks.md "
                      "explains each)",
                      "bsp-check --list-rules",
                      "a JSON array of objects, one per rule, with every column of the rule catalogue", rules_json,
                      print_rules_table);
}

int list_options_command(const std::vector<std::string>& args) {
  return list_command(
      args, "bsp-check --list-options: every key of BSPCHECK_OPTIONS with its values, default and run flag",
      "bsp-check --list-options", "a JSON array of objects, one per option, with every column of the options table",
      options_json, print_options_table);
}

}  // namespace bspcheck::cli
