#include "checker/diagnostics.hpp"

#include "checker/finding_text.hpp"
#include "runtime/executable/symbolise.hpp"
#include "runtime/executable/call_stacks.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <sstream>

// The finding just reported, for a debugger (tools/gdb/bspcheck_gdb.py): plain C data at fixed
// offsets, read without the runtime's debug information, and a function that is called after
// each report, where `bsp-check debug` stops. Only a reported finding pays for the copy.
extern "C" {
struct bspcheck_debug_finding {
  std::int64_t count;  // findings reported so far in this process (not dropped ones)
  std::int64_t superstep;
  std::int64_t nprocesses;
  std::int64_t processes[4];
  std::int64_t nlocations;
  std::int64_t location_process[2];
  std::int64_t location_line[2];
  char rule[64];
  char message[1024];
  char location_file[2][512];
  char location_call[2][64];
};
bspcheck_debug_finding bspcheck_last_finding{};
__attribute__((noinline)) void bspcheck_finding_raised(void) {
  static volatile int calls;
  calls = calls + 1;
}
}

namespace bspcheck::checker {

namespace {

template <std::size_t N>
void copy_text(char (&to)[N], const std::string& from) {
  const std::size_t n = from.size() < N - 1 ? from.size() : N - 1;
  std::memcpy(to, from.data(), n);
  to[n] = '\0';
}

void publish_for_debugger(const Finding& f) {
  bspcheck_debug_finding& d = bspcheck_last_finding;
  ++d.count;
  d.superstep = f.superstep;
  d.nprocesses = static_cast<std::int64_t>(f.processes.size());
  for (std::size_t i = 0; i < 4; ++i) d.processes[i] = i < f.processes.size() ? f.processes[i] : -1;
  d.nlocations = static_cast<std::int64_t>(f.locations.size());
  for (std::size_t i = 0; i < 2; ++i) {
    const Location* l = i < f.locations.size() ? &f.locations[i] : nullptr;
    d.location_process[i] = l ? l->process : -1;
    d.location_line[i] = l ? l->line : 0;
    copy_text(d.location_file[i], l ? l->file : std::string());
    copy_text(d.location_call[i], l ? l->call : std::string());
  }
  copy_text(d.rule, f.rule);
  copy_text(d.message, f.message);
  bspcheck_finding_raised();
}

// The directory the program started in (the user's, where bsp-check was run), taken before the
// program can change it.
const std::string g_start_dir = [] {
  char buf[4096];
  return getcwd(buf, sizeof buf) ? std::string(buf) : std::string();
}();

// A path from debug information is absolute (the compile directory joined to the file), where a
// bsp.h site names the file as the compiler was given it (`a.c`). Under the start directory both
// are shown alike, relative to it, so that one finding's locations read alike.
std::string shown_path(std::string file) {
  const std::size_t n = g_start_dir.size();
  if (n > 1 && file.size() > n + 1 && file.compare(0, n, g_start_dir) == 0 && file[n] == '/') file.erase(0, n + 1);
  return file;
}

}  // namespace

Location Diagnostics::location(const rt::Site& site, int process, const char* call) const {
  Location l;
  l.process = process;
  l.call = call ? call : "";
  if (site.stack) {
    // Made through a wrapper: located at the user's line that called it, with the stack.
    const rt::SymbolisedStack& s = rt::symbolised_stack(site.stack);
    l.stack = s.frames;  // without debug information outside the wrapper: the wrapper's line, and this
    for (StackFrame& f : l.stack) f.file = shown_path(std::move(f.file));
    if (s.user >= 0) {
      l.file = l.stack[static_cast<std::size_t>(s.user)].file;
      l.line = l.stack[static_cast<std::size_t>(s.user)].line;
      return l;
    }
  }
  if (site.file) {
    l.file = site.file;
    l.line = site.line;
  } else if (site.pc && rt::call_source(site.pc, l.file, l.line)) {
    // No __FILE__/__LINE__ (a program built against another bsp.h, a call that is not BSPlib's):
    // the line from the program's debug information.
    l.file = shown_path(std::move(l.file));
  } else if (site.pc) {
    // Nor debug information: name the caller's symbol.
    l.file = rt::describe_address(site.pc);
  }
  return l;
}

bool Diagnostics::enabled(const std::string& rule) const {
  for (const std::string& d : disabled_)
    if (d == rule) return false;
  return true;
}

bool Diagnostics::report(Finding f) {
  // The catalogue decides the severity; an id outside it (none is raised) counts as an error.
  const RuleInfo* rule = find_rule(f.rule);
  f.severity = rule ? rule->severity : Severity::error;
  if (!enabled(f.rule) || suppressions_.matches(f)) {
    ++dropped_;
    return false;
  }
  if (finding_fails(f, werror_)) ++errors_;
  std::string key = f.rule;
  for (const Location& l : f.locations) key += "|" + l.file + ":" + std::to_string(l.line);
  Repeats& r = repeats_[key];
  const bool printed = out_ && r.seen == 0;
  if (printed) {
    std::fputs(render_finding(f, repro_).c_str(), out_);
    std::fflush(out_);
  }
  ++r.seen;
  publish_for_debugger(f);
  if (r.kept < kKeptRepeats || f.superstep == r.last_kept_superstep) {
    ++r.kept;
    r.last_kept_superstep = f.superstep;
    findings_.push_back(std::move(f));
  }
  if (printed && on_printed_) on_printed_();
  return true;
}

void Diagnostics::print_repeat_summary() {
  if (!out_) return;
  for (const auto& [key, r] : repeats_)
    if (r.seen > 1)
      std::fprintf(out_, "bsp-check: note: %zu more finding(s) like [%s] not shown\n", r.seen - 1, key.c_str());
}

}  // namespace bspcheck::checker
