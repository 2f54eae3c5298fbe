#include "runtime/options/options.hpp"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "runtime/options/option_list.hpp"

namespace bspcheck::rt {

namespace {

// Setting a field from a parsed value: a list option given twice adds to the list.
template <typename T>
void assign(T& field, T value) {
  field = std::move(value);
}
template <typename T>
void assign(std::vector<T>& field, std::vector<T> value) {
  for (T& v : value) field.push_back(std::move(v));
}

// One generated function per row: parse into, print from, and compare with the default.
struct Row {
  OptionInfo info;
  void (*set)(ProgramOptions&, const std::string& key, const std::string& text);
  std::string (*get)(const ProgramOptions&);
  bool (*is_default)(const ProgramOptions&);
};

constexpr const char* scope_text(OptionScope s) {
  return s == OptionScope::checker ? "checker" : s == OptionScope::reproduce ? "reproduce" : "session";
}
// The table's SCOPE column names these; `session` exists only there.
constexpr OptionScope reproduce = OptionScope::reproduce;
constexpr OptionScope checker = OptionScope::checker;
constexpr OptionScope session = OptionScope::all;

const std::vector<Row>& rows() {
  static const ProgramOptions defaults;
  static const std::vector<Row> table = {
#define BSPCHECK_OPTION(KEY, FIELD, VALUE, SCOPE, FLAG, HELP)                                              \
  Row{OptionInfo{KEY, scope_text(SCOPE), FLAG, HELP, VALUE::syntax(), VALUE::format(defaults.FIELD),       \
                 std::is_same_v<VALUE, BoolValue>, std::is_same_v<VALUE::type, std::vector<std::string>>}, \
      [](ProgramOptions& o, const std::string& key, const std::string& text) {                             \
        assign(o.FIELD, VALUE::parse(key, text));                                                          \
      },                                                                                                   \
      [](const ProgramOptions& o) { return VALUE::format(o.FIELD); },                                      \
      [](const ProgramOptions& o) { return o.FIELD == defaults.FIELD; }},
#include "runtime/options/options.def"
#undef BSPCHECK_OPTION
  };
  return table;
}

const Row* find_row(const std::string& key) {
  for (const Row& r : rows())
    if (key == r.info.key) return &r;
  return nullptr;
}

bool in_scope(const Row& r, OptionScope scope) {
  const std::string s = r.info.scope;
  switch (scope) {
    case OptionScope::checker:
      return s == "checker";
    case OptionScope::reproduce:
      return s == "checker" || s == "reproduce";
    case OptionScope::all:
      return true;
  }
  return false;
}

}  // namespace

void set_program_option(ProgramOptions& o, const std::string& key, const std::string& value) {
  const Row* r = find_row(key);
  if (!r) throw std::invalid_argument("unknown option '" + key + "'");
  r->set(o, key, value);
}

void parse_program_options(const std::string& text, ProgramOptions& into) {
  // A key given twice is a mistake (which one counts?), except a list's, whose items add up.
  std::vector<std::string> seen;
  for (const auto& [key, value] : parse_key_values(text)) {
    const Row* r = find_row(key);
    if (r && !r->info.list && std::find(seen.begin(), seen.end(), key) != seen.end())
      throw std::invalid_argument(key + ": given twice; give each key once");
    seen.push_back(key);
    set_program_option(into, key, value);
  }
}

ProgramOptions parse_program_options(const std::string& text) {
  ProgramOptions o;
  parse_program_options(text, o);
  return o;
}

std::string format_program_options(const ProgramOptions& o, OptionScope scope) {
  std::string s;
  for (const Row& r : rows()) {
    if (!in_scope(r, scope)) continue;
    const std::string key = r.info.key;
    const bool always = scope != OptionScope::checker && (key == "seed" || key == "procs");
    if (!always && r.is_default(o)) continue;
    s += (s.empty() ? "" : ":") + key + "=" + r.get(o);
  }
  return s;
}

const std::vector<OptionInfo>& option_table() {
  static const std::vector<OptionInfo> infos = [] {
    std::vector<OptionInfo> v;
    for (const Row& r : rows()) v.push_back(r.info);
    return v;
  }();
  return infos;
}

const OptionInfo* find_option(const std::string& key) {
  for (const OptionInfo& info : option_table())
    if (key == info.key) return &info;
  return nullptr;
}

std::string option_value_error(const std::string& key, const std::string& text) {
  ProgramOptions scratch;
  try {
    set_program_option(scratch, key, text);
    return {};
  } catch (const std::invalid_argument& e) {
    // The message names the key first ("stack: expected ..."): the caller names its flag instead.
    const std::string what = e.what();
    return what.rfind(key + ": ", 0) == 0 ? what.substr(key.size() + 2) : what;
  }
}

std::vector<std::pair<std::string, std::string>> reproduce_flags(const ProgramOptions& o) {
  std::vector<std::pair<std::string, std::string>> flags;
  for (const Row& r : rows()) {
    const std::string key = r.info.key;
    if (!*r.info.flag || !in_scope(r, OptionScope::reproduce) || key == "seed" || key == "procs" || r.is_default(o))
      continue;
    flags.emplace_back(r.info.flag, r.info.boolean ? std::string() : r.get(o));
  }
  return flags;
}

std::size_t parse_size(const std::string& text, const std::string& key) { return StackSizeValue::parse(key, text); }

}  // namespace bspcheck::rt
