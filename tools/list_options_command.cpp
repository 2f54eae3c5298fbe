#include "tools/list_options_command.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>

#include "runtime/options.hpp"
#include "tools/cli_parse.hpp"

namespace bspcheck::cli {

namespace {

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

}  // namespace

int list_options_command(const std::vector<std::string>& args) {
  CLI::App app{"bsp-check --list-options: every key of BSPCHECK_OPTIONS with its values, default and run flag",
               "bsp-check --list-options"};
  bool json = false;
  app.add_flag("--json", json, "a JSON array of objects, one per option, with every column of the options table");
  if (auto status = parse_arguments(app, {args.begin() + 1, args.end()})) return *status;
  if (json)
    std::cout << options_json().dump(2) << "\n";
  else
    print_options_table(std::cout);
  return 0;
}

}  // namespace bspcheck::cli
