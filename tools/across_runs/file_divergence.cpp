#include "tools/across_runs/file_divergence.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "bspcheck/rules.hpp"
#include "tools/across_runs/output_divergence.hpp"
#include "tools/cli/reproduce_command.hpp"

namespace bspcheck::cli {

namespace fs = std::filesystem;

namespace {

// What a run left at each name ("cwd/out/a.txt"): a file's contents, a link's target, a
// directory, or its removal.
std::map<std::string, std::string> kept_entries(const fs::path& kept) {
  std::map<std::string, std::string> entries;
  std::error_code e;
  if (!fs::is_directory(kept, e)) return entries;
  for (fs::recursive_directory_iterator it(kept, e), end; !e && it != end; it.increment(e)) {
    const std::string name = fs::relative(it->path(), kept, e).generic_string();
    if (it.depth() == 0 && !it->is_directory()) continue;  // roots.txt, removed.txt
    if (it->is_symlink()) entries[name] = "link to " + fs::read_symlink(it->path(), e).string();
    else if (it->is_directory()) entries[name] = "a directory";
    else {
      std::ifstream in(it->path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      entries[name] = "file:" + text.str();
    }
  }
  std::ifstream removed(kept / "removed.txt");
  for (std::string line; std::getline(removed, line);) entries[line] = "removed";
  return entries;
}

std::string quoted(const std::string& line) {
  std::string q = line.size() > 80 ? line.substr(0, 80) + "..." : line;
  return "\"" + q + "\"";
}

// Where two contents part: the first differing line of text, or byte of binary data.
std::string where_contents_part(const std::string& a, const std::string& b, const std::string& name_a,
                                const std::string& name_b) {
  const bool binary = a.find('\0') != std::string::npos || b.find('\0') != std::string::npos;
  const auto part = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  const auto at = static_cast<std::size_t>(part.first - a.begin());
  if (binary)
    return "byte " + std::to_string(at) + " (" + std::to_string(a.size()) + " bytes under " + name_a + ", " +
           std::to_string(b.size()) + " under " + name_b + ")";
  const std::size_t line_start = a.rfind('\n', at == 0 ? std::string::npos : at - 1);
  const std::size_t from = at == 0 || line_start == std::string::npos ? 0 : line_start + 1;
  const auto line_number = 1 + std::count(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(from), '\n');
  const auto line_of = [&](const std::string& s) {
    if (from >= s.size()) return std::string();
    const std::size_t end = s.find('\n', from);
    return s.substr(from, end == std::string::npos ? std::string::npos : end - from);
  };
  const auto said = [&](const std::string& s, const std::string& who) {
    return from >= s.size() ? who + " wrote no such line" : who + " wrote " + quoted(line_of(s));
  };
  return "line " + std::to_string(line_number) + ": " + said(a, name_a) + ", " + said(b, name_b);
}

}  // namespace

std::string kept_run_dir(const std::string& dir, int p, std::uint64_t seed) {
  return (fs::path(dir) / ("p" + std::to_string(p) + "-s" + std::to_string(seed))).string();
}

std::optional<std::string> first_file_difference(const std::string& kept_a, const std::string& kept_b,
                                                 const std::string& name_a, const std::string& name_b) {
  const std::map<std::string, std::string> a = kept_entries(kept_a), b = kept_entries(kept_b);
  auto x = a.begin(), y = b.begin();
  for (; x != a.end() || y != b.end();) {
    if (y == b.end() || (x != a.end() && x->first < y->first)) {
      if (x->second == "a directory") {
        ++x;  // a directory alone is where a file lies, compared by its files
        continue;
      }
      return x->first + (x->second == "removed" ? " is removed" : " is written") + " under " + name_a + ", not under " +
             name_b;
    }
    if (x == a.end() || y->first < x->first) {
      if (y->second == "a directory") {
        ++y;
        continue;
      }
      return y->first + (y->second == "removed" ? " is removed" : " is written") + " under " + name_b + ", not under " +
             name_a;
    }
    if (x->second != y->second) {
      if (x->second.rfind("file:", 0) == 0 && y->second.rfind("file:", 0) == 0)
        return x->first + ", " + where_contents_part(x->second.substr(5), y->second.substr(5), name_a, name_b);
      return x->first + ": " + (x->second.rfind("file:", 0) == 0 ? "a file" : x->second) + " under " + name_a + ", " +
             (y->second.rfind("file:", 0) == 0 ? "a file" : y->second) + " under " + name_b;
    }
    ++x;
    ++y;
  }
  return std::nullopt;
}

Finding file_divergence_finding(const RunConfig& c, int p, std::uint64_t seed_a, std::uint64_t seed_b,
                                const std::string& differs) {
  Finding f;
  f.rule = rule_id(Rule::schedule_divergence);
  f.severity = rule_severity(Rule::schedule_divergence);
  f.message = "the runs write different files under seeds " + std::to_string(seed_a) + " and " +
              std::to_string(seed_b) + " (p = " + std::to_string(p) + "): " + differs +
              ". No line: a file is compared as the runs left it, not write by write. Reproduce: " +
              divergence_reproduce(c, p, seed_a, seed_b) +
              " ; each seed alone (with --keep-files DIR to see its files): " + repro_command(c, p, seed_a) + " ; " +
              repro_command(c, p, seed_b) +
              ". If the files legitimately depend on the schedule, use --schedule-dependent-output";
  return f;
}

}  // namespace bspcheck::cli
