#include "tools/cli/option_checks.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "runtime/options/options.hpp"

namespace bspcheck::cli {

namespace {

std::string number_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

}  // namespace

std::optional<std::uint64_t> parse_whole_number(const std::string& text, std::uint64_t min, std::uint64_t max) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < min || v > max) return std::nullopt;
  return v;
}

CLI::Validator whole_number(std::uint64_t min, std::uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        if (parse_whole_number(text, min, max)) return {};
        return "expected a whole number from " + std::to_string(min) + " to " + std::to_string(max) + ", got '" + text +
               "'";
      },
      "");  // no description: the help shows the option's type (UINT) alone, not UINT:UINT
}

CLI::Validator real_number(double min, double max, const std::string& unit) {
  return CLI::Validator(
      [min, max, unit](std::string& text) -> std::string {
        errno = 0;
        char* end = nullptr;
        const double v = text.empty() ? NAN : std::strtod(text.c_str(), &end);
        const bool ok = !text.empty() && end == text.c_str() + text.size() && errno == 0 && std::isfinite(v) &&
                        v >= min && v <= max && text.find_first_of(" \t\n") == std::string::npos;
        if (ok) return {};
        return "expected " + (unit.empty() ? std::string("a number") : unit) + " from " + number_text(min) + " to " +
               number_text(max) + ", got '" + text + "'";
      },
      "");  // no description: the help shows the option's type alone
}

CLI::Validator option_value(const std::string& key) {
  const rt::OptionInfo* info = rt::find_option(key);
  return CLI::Validator([key](std::string& text) { return rt::option_value_error(key, text); },
                        info ? info->syntax : std::string("VALUE"));
}

std::string option_help(const std::string& key) {
  const rt::OptionInfo* info = rt::find_option(key);
  return info ? std::string(info->help) + " (" + info->syntax + ")" : std::string();
}

void add_option_flags(CLI::App& app, rt::ProgramOptions& into, const std::vector<std::string>& own) {
  for (const rt::OptionInfo& info : rt::option_table()) {
    const std::string key = info.key, flag = info.flag;
    if (flag.empty() || std::find(own.begin(), own.end(), key) != own.end()) continue;
    const auto set = [&into, key](const std::string& text) { rt::set_program_option(into, key, text); };
    if (info.boolean) {
      const std::string value = info.default_text == "1" ? "0" : "1";
      app.add_flag_callback(
          flag, [set, value] { set(value); }, info.help);
    } else if (info.list) {
      app.add_option_function<std::vector<std::string>>(
             flag,
             [set](const std::vector<std::string>& values) {
               for (const std::string& v : values) set(v);
             },
             option_help(key))
          ->check(option_value(key))  // the row's parser splits at ',' (CLI11's delimiter dropped empty items)
          ->allow_extra_args(false)
          ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
          ->type_name("LIST");
    } else {
      CLI::Option* o = app.add_option_function<std::string>(flag, set, option_help(key))->check(option_value(key));
      if (!info.default_text.empty()) o->default_str(info.default_text);
    }
  }
}

CLI::Validator output_file() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (text.empty()) return "expected a file name, got ''";
        if (text == "-") return "expected a file name, got '-' (reports are written to files, not to standard output)";
        return {};
      },
      "");  // no description: the help shows the option's FILE alone
}

std::string why_not_writable(const std::string& path) {
  if (path.empty()) return "an empty path";
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return "it is a directory";
  // Created and removed again when it did not exist: the check leaves nothing behind.
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd >= 0) {
    close(fd);
    unlink(path.c_str());
    return {};
  }
  if (errno == EEXIST) fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd >= 0) {
    close(fd);
    return {};
  }
  return std::strerror(errno);
}

std::string why_not_trace_dir(const std::string& dir, bool must_exist) {
  if (dir.find(':') != std::string::npos) return dir + ": a path with ':' cannot be passed in BSPCHECK_OPTIONS";
  // The error_code form: a directory behind one the user may not search is "not a directory"
  // too, not an exception.
  if (std::error_code ec; must_exist && !std::filesystem::is_directory(dir, ec))
    return "--trace-dir " + dir + ": not a directory";
  return {};
}

}  // namespace bspcheck::cli
