#include "checker/finding_text.hpp"

#include <sstream>
#include <vector>

#include "bspcheck/rules.hpp"

namespace bspcheck::checker {

namespace {

std::string file_line(const Location& l) {
  std::string s = l.file.empty() ? "<unknown>" : l.file;
  if (l.line > 0) s += ":" + std::to_string(l.line);
  return s;
}

// What a location's stack is: a BSPlib call's is that of a call made through a wrapper; the
// engine names other locations by what happened there (location_event).
std::string stack_heading(const Location& l) {
  if (l.call == location_event::allocation) return "where the allocation failed";
  if (l.call == location_event::null_pointer_use) return "where the null pointer was used";
  if (l.call == location_event::read || l.call == location_event::write) return "where the memory was accessed";
  if (l.call == location_event::signal) return "where the process crashed";
  if (l.call == location_event::exit) return "where exit was called";
  if (l.call == location_event::thrown) return "where the exception was thrown";
  return "called through a wrapper";
}

}  // namespace

std::string stack_text(const std::vector<StackFrame>& stack) {
  std::string s;
  for (std::size_t i = 0; i < stack.size(); ++i) {
    const StackFrame& f = stack[i];
    s += "      #" + std::to_string(i) + " " + (f.function.empty() ? "??" : f.function);
    if (!f.file.empty()) s += " at " + f.file + (f.line > 0 ? ":" + std::to_string(f.line) : "");
    s += "\n";
  }
  return s;
}

std::string location_text(const Location& l) {
  std::string s = file_line(l) + " (";
  if (!l.call.empty()) s += l.call + ", ";
  return s + "process " + std::to_string(l.process) + (l.state.empty() ? "" : ", " + l.state) + ")";
}

std::string finding_label(const Finding& f) { return std::string(severity_name(f.severity)) + "[" + f.rule + "]"; }

std::string finding_headline(const Finding& f) {
  return finding_label(f) + ": superstep " + std::to_string(f.superstep) + ": " + f.message;
}

std::string render_finding_outside_spmd(const Finding& f, const std::string& repro) {
  std::string s = "bsp-check: " + finding_label(f) + ": " + f.message + "\n";
  if (const RuleInfo* rule = find_rule(f.rule)) s += "  rule: " + rule_statement_text(*rule) + "\n";
  if (!repro.empty()) s += "  reproduce: " + repro + "\n";
  return s;
}

std::string render_finding(const Finding& f, const std::string& repro) {
  std::ostringstream s;
  s << "bsp-check: " << finding_headline(f) << "\n";
  std::vector<const std::vector<StackFrame>*> shown;  // each stack once, whatever the processes
  for (const Location& l : f.locations) {
    s << "  at " << location_text(l) << "\n";
    if (l.stack.empty()) continue;
    bool seen = false;
    for (const auto* st : shown) seen = seen || *st == l.stack;
    if (seen) continue;
    shown.push_back(&l.stack);
    s << "    " << stack_heading(l) << ":\n" << stack_text(l.stack);
  }
  if (const RuleInfo* rule = find_rule(f.rule)) s << "  rule: " << rule_statement_text(*rule) << "\n";
  if (!repro.empty()) s << "  reproduce: " << repro << "\n";
  return s.str();
}

std::string finding_where(const Finding& f) {
  std::vector<std::string> seen;
  for (const Location& l : f.locations) {
    const std::string w = file_line(l);
    bool dup = false;
    for (const std::string& s : seen) dup = dup || s == w;
    if (!dup) seen.push_back(w);
  }
  // A finding without a call site (its message says why): its superstep, not "<unknown>".
  if (seen.empty()) return "superstep " + std::to_string(f.superstep) + ", no line";
  std::string out;
  for (const std::string& s : seen) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace bspcheck::checker
