#include "tools/across_runs/file_divergence.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "bspcheck/rules.hpp"
#include "tools/across_runs/output_divergence.hpp"
#include "runtime/isolation/file_byte_watch.hpp"
#include "tools/cli/reproduce_command.hpp"
#include "tools/launch/run_launcher.hpp"

namespace bspcheck::cli {

namespace fs = std::filesystem;

namespace {

// A file's bytes; nothing when it cannot be opened.
std::optional<std::string> whole_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

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
    else entries[name] = "file:" + whole_file(it->path()).value_or("");
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
std::size_t first_differing_byte(const std::string& a, const std::string& b) {
  return static_cast<std::size_t>(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin());
}

std::string where_contents_part(const std::string& a, const std::string& b, const std::string& name_a,
                                const std::string& name_b) {
  const bool binary = a.find('\0') != std::string::npos || b.find('\0') != std::string::npos;
  const std::size_t at = first_differing_byte(a, b);
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

// The path the runs saw for a kept entry ("cwd/out/a.txt"): its root's path, from the run's
// roots.txt ("cwd<TAB>/home/u/proj"), and the rest; empty when the root is not listed.
std::string path_of_entry(const std::string& kept, const std::string& entry) {
  const std::size_t slash = entry.find('/');
  if (slash == std::string::npos) return {};
  std::ifstream roots(fs::path(kept) / "roots.txt");
  for (std::string line; std::getline(roots, line);) {
    const std::size_t tab = line.find('\t');
    if (tab != std::string::npos && line.compare(0, tab, entry, 0, slash) == 0 && tab == slash)
      return line.substr(tab + 1) + entry.substr(slash);
  }
  return {};
}

std::optional<FileDifference> first_file_difference(const std::string& kept_a, const std::string& kept_b,
                                                    const std::string& name_a, const std::string& name_b) {
  const std::map<std::string, std::string> a = kept_entries(kept_a), b = kept_entries(kept_b);
  const auto is_file = [](const std::string& what) { return what.rfind("file:", 0) == 0 || what == "removed"; };
  // The byte at `offset` of `entry` as run a left it: what it wrote, its removal, or (nothing
  // kept) the file as the session found it, which no run changes.
  const auto reference = [&](const std::string& entry, std::uint64_t offset, const std::string& real) {
    ExpectedFileByte e{entry, offset, ExpectedFileByte::kFileAbsent};
    if (entry.find(':') != std::string::npos || real.empty()) return ExpectedFileByte{};
    std::string contents;
    if (const auto it = a.find(entry); it != a.end()) {
      if (it->second.rfind("file:", 0) != 0) return e;  // removed
      contents = it->second.substr(5);
    } else {
      const std::optional<std::string> whole = whole_file(real);
      if (!whole) return e;
      contents = *whole;
    }
    e.state =
        offset < contents.size() ? static_cast<unsigned char>(contents[offset]) : ExpectedFileByte::kFileEndsBefore;
    return e;
  };
  // Only one run left something at `entry`, or removed it.
  const auto alone = [&](const std::string& entry, const std::string& what, const std::string& who,
                         const std::string& other, const std::string& kept) {
    FileDifference d{
        entry + (what == "removed" ? " is removed" : " is written") + " under " + who + ", not under " + other,
        is_file(what) ? path_of_entry(kept, entry) : std::string(),
        0,
        {}};
    if (!d.file.empty()) d.reference = reference(entry, 0, d.file);
    return d;
  };
  auto x = a.begin(), y = b.begin();
  for (; x != a.end() || y != b.end();) {
    if (y == b.end() || (x != a.end() && x->first < y->first)) {
      if (x->second == "a directory") {
        ++x;  // a directory alone is where a file lies, compared by its files
        continue;
      }
      return alone(x->first, x->second, name_a, name_b, kept_a);
    }
    if (x == a.end() || y->first < x->first) {
      if (y->second == "a directory") {
        ++y;
        continue;
      }
      return alone(y->first, y->second, name_b, name_a, kept_b);
    }
    if (x->second != y->second) {
      if (x->second.rfind("file:", 0) == 0 && y->second.rfind("file:", 0) == 0) {
        const std::string ca = x->second.substr(5), cb = y->second.substr(5);
        FileDifference d{x->first + ", " + where_contents_part(ca, cb, name_a, name_b),
                         path_of_entry(kept_b, x->first),
                         first_differing_byte(ca, cb),
                         {}};
        d.reference = reference(x->first, d.offset, d.file);
        return d;
      }
      return FileDifference{x->first + ": " + (x->second.rfind("file:", 0) == 0 ? "a file" : x->second) + " under " +
                                name_a + ", " + (y->second.rfind("file:", 0) == 0 ? "a file" : y->second) + " under " +
                                name_b,
                            {},
                            0,
                            {}};
    }
    ++x;
    ++y;
  }
  return std::nullopt;
}

namespace {

// The answer of a run that watched a byte (runtime/isolation/file_byte_watch.hpp) on its stderr:
// the process that last changed it, and where; nothing when it did not say or saw no change.
std::optional<std::pair<int, Location>> watch_answer(const std::string& err) {
  const std::string tag = std::string(rt::kFileWatchAnswer) + "changed ";
  const std::size_t at = err.rfind(tag);
  if (at == std::string::npos) return std::nullopt;
  std::istringstream in(err.substr(at + tag.size(), err.find('\n', at) - at - tag.size()));
  int superstep = 0;
  Location l;
  std::string file;
  if (!(in >> l.process >> superstep >> l.line >> l.call) || !std::getline(in >> std::ws, file)) return std::nullopt;
  if (file != "-") l.file = file;
  return std::make_pair(superstep, l);
}

}  // namespace

bool locate_file_difference(const RunConfig& c, const std::string& path, int p, std::uint64_t seed_a,
                            std::uint64_t seed_b, const FileDifference& d, StdinFeed& in, Finding& f) {
  if (d.file.empty() || d.file.find(':') != std::string::npos) return false;  // options hold no ':'
  RunConfig again = c;
  again.keep_trace = false;
  again.options.run.trace_file.clear();
  again.options.keep_files.clear();  // what these runs write goes with them
  again.options.watch_file = d.file;
  again.options.watch_byte = d.offset;
  std::optional<std::pair<int, Location>> answers[2];
  for (int i = 0; i < 2; ++i)
    answers[i] = watch_answer(run_once(again, path, p, i == 0 ? seed_a : seed_b, in, false).err);
  if (!answers[0] && !answers[1]) return false;
  f.superstep = answers[1] ? answers[1]->first : answers[0]->first;
  for (const auto& answer : answers) {
    if (!answer) continue;
    const Location& l = answer->second;
    if (f.locations.empty() || !same_call_site(f.locations[0], l)) f.locations.push_back(l);  // once when both agree
    if (std::find(f.processes.begin(), f.processes.end(), l.process) == f.processes.end())
      f.processes.push_back(l.process);
  }
  return true;
}

Finding file_divergence_finding(const RunConfig& c, const std::string& path, int p, std::uint64_t seed_a,
                                std::uint64_t seed_b, const FileDifference& d, StdinFeed& in) {
  Finding f;
  f.rule = rule_id(Rule::schedule_divergence);
  f.severity = rule_severity(Rule::schedule_divergence);
  const bool located = locate_file_difference(c, path, p, seed_a, seed_b, d, in, f);
  f.message = "the runs write different files under seeds " + std::to_string(seed_a) + " and " +
              std::to_string(seed_b) + " (p = " + std::to_string(p) + ")" +
              (located ? ", from superstep " + std::to_string(f.superstep) : std::string()) + ": " + d.text +
              (located ? " (the locations: the process that wrote that byte under each seed, at its last BSPlib call "
                         "before the write)"
                       : ". No line: a file is compared as the runs left it, not write by write") +
              ". Reproduce: " + divergence_reproduce(c, p, seed_a, seed_b) +
              " ; each seed alone (with --keep-files DIR to see its files): " + repro_command(c, p, seed_a) + " ; " +
              repro_command(c, p, seed_b) +
              ". If the files legitimately depend on the schedule, use --schedule-dependent-output";
  return f;
}

}  // namespace bspcheck::cli
