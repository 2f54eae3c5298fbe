// The SARIF log of a session (docs/cli.md, "SARIF"): the rules, one result per distinct finding,
// and the session's notifications.
#include "tools/reports/reports.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "bspcheck/rules.hpp"
#include "tools/reports/run_report_file.hpp"
#include "runtime/base/hash.hpp"

#ifndef BSPCHECK_INFORMATION_URI
#define BSPCHECK_INFORMATION_URI "https://github.com/bsp-check/bsp-check"
#endif

namespace bspcheck::cli {

namespace {

// partialFingerprints["bspCheckFinding/v1"]: code scanning matches alerts across runs and builds
// by it, so it keeps the basis it was defined with (runtime/base/hash.hpp, kFnv1a64LegacyBasis).
std::string fingerprint_v1(const std::string& key) {
  rt::Fnv1a64 h(rt::kFnv1a64LegacyBasis);
  h.add(key);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h.value()));
  return buf;
}

// A path as a URI reference (RFC 3986): unreserved characters and '/' stay, the rest is
// percent-encoded.
std::string path_uri(const std::string& path) {
  static const char* hex = "0123456789ABCDEF";
  std::string u;
  for (unsigned char c : path) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
        c == '_' || c == '~' || c == '/')
      u += static_cast<char>(c);
    else {
      u += '%';
      u += hex[c >> 4];
      u += hex[c & 15];
    }
  }
  return u;
}

// Where the results' files are: --source-root, or else the folder the session ran in, as
// %SRCROOT% (GitHub code scanning resolves results against the repository through it). A file
// under it is named relative to it. A relative file name (the runtime names files under the
// folder the program started in relative to it) is looked up in that folder, then in the root.
const char* kSrcRoot = "%SRCROOT%";

struct SarifPaths {
  std::filesystem::path cwd;   // where the session ran
  std::filesystem::path root;  // %SRCROOT%, absolute and normal
};

SarifPaths sarif_paths(const std::string& source_root) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  if (ec) cwd = "/";
  if (source_root.empty()) return {cwd, cwd};
  fs::path root = fs::weakly_canonical(cwd / source_root, ec);
  if (ec) root = (cwd / source_root).lexically_normal();
  return {cwd, root};
}

// An artifactLocation for a file: {"uri": "src/a.c", "uriBaseId": "%SRCROOT%"} under the root,
// else {"uri": "file:///abs/path"}.
nlohmann::json artifact_location(const std::string& file, const SarifPaths& at) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::path(file);
  if (p.is_relative()) {
    // A name from the debug information is relative to where it was compiled, which a report
    // does not know: resolved here when it names an existing file, else kept as it is.
    if (fs::exists(at.cwd / p, ec)) p = at.cwd / p;
    else if (fs::exists(at.root / p, ec)) p = at.root / p;
    else return {{"uri", path_uri(p.generic_string())}, {"uriBaseId", kSrcRoot}};
  }
  p = fs::weakly_canonical(p, ec).lexically_normal();
  if (ec) p = fs::path(file).lexically_normal();
  const fs::path rel = p.lexically_relative(at.root);
  if (!rel.empty() && *rel.begin() != "..") return {{"uri", path_uri(rel.generic_string())}, {"uriBaseId", kSrcRoot}};
  return {{"uri", "file://" + path_uri(p.generic_string())}};
}

// "bsp_put, process 2": what the location's message says.
std::string call_and_process(const Location& l) {
  return (l.call.empty() ? "" : l.call + ", ") + "process " + std::to_string(l.process) +
         (l.state.empty() ? "" : ", " + valid_utf8(l.state));
}

// A SARIF physicalLocation: the file, and the line when known.
nlohmann::json physical_location(const std::string& file, long long line, const SarifPaths& at) {
  nlohmann::json phys = {{"artifactLocation", artifact_location(file, at)}};
  if (line > 0) phys["region"] = {{"startLine", line}};
  return phys;
}

// A SARIF location for one of a finding's locations. The runtime names a call site by file and
// line, or, without them, as "symbol in object +0xoffset": that is a logical location.
nlohmann::json sarif_location(const Location& l, const SarifPaths& at) {
  nlohmann::json loc = nlohmann::json::object();
  const std::string file = valid_utf8(l.file);
  const long long line = l.line;
  if (!file.empty() && file.find(" in ") != std::string::npos && file.find(" +0x") != std::string::npos) {
    loc["logicalLocations"] = nlohmann::json::array({{{"fullyQualifiedName", file}, {"kind", "function"}}});
  } else if (!file.empty()) {
    loc["physicalLocation"] = physical_location(file, line, at);
  }
  loc["message"] = {{"text", call_and_process(l)}};
  if (!l.state.empty()) loc["properties"] = {{"process", l.process}, {"state", valid_utf8(l.state)}};
  return loc;
}

struct Distinct {
  const Finding* finding = nullptr;  // first occurrence
  const RunRecord* first = nullptr;
  nlohmann::json runs = nlohmann::json::array();
  std::vector<const Finding*> others;  // the same finding at other processes (relatedLocations)
  std::set<std::string> seen;          // finding_key of every member
};

// SARIF's longer description of a rule: its category and source before the statement, e.g.
// "drma rule, BSPlib 3.2.4 (3): a put may not write past ...".
std::string sarif_full_description(const RuleInfo& r) {
  std::string s = std::string(category_name(r.category)) + " rule, " + r.source + ": " + r.statement + ".";
  if (r.reserved) s += " Reserved: bsp-check does not raise it yet.";
  return s;
}

// The rules: every public one, and any other id a report names (so every ruleId resolves).
struct SarifRules {
  nlohmann::json rules = nlohmann::json::array();
  std::map<std::string, int> index;
  void add(const std::string& id, const std::string& level, const std::string& text) {
    index[id] = static_cast<int>(rules.size());
    rules.push_back({{"id", id}, {"shortDescription", {{"text", text}}}, {"defaultConfiguration", {{"level", level}}}});
  }
};

SarifRules catalogue_rules() {
  SarifRules r;
  for (const RuleInfo& info : all_rules()) {
    r.add(info.id, severity_name(info.severity), rule_statement_text(info));
    nlohmann::json& rule = r.rules.back();
    rule["fullDescription"] = {{"text", sarif_full_description(info)}};
    rule["help"] = {{"text", std::string(info.help) + ". See docs/checks.md#" + info.id + "."}};
    rule["properties"] = {
        {"category", category_name(info.category)}, {"source", info.source}, {"reserved", info.reserved}};
  }
  return r;
}

// What makes findings one SARIF result: the rule and the call sites, whatever the processes
// (and so the message, which names them): one result per finding, its processes as related
// locations and thread flows, as GitHub code scanning expects.
std::string result_key(const Finding& f) {
  std::string key = f.rule;
  for (const Location& l : f.locations) key += "\x1f" + l.file + ":" + std::to_string(l.line) + ":" + l.call;
  return key;
}

// The runs' findings, one Distinct per result key in the order of first appearance, and a
// notification per run that failed for a reason other than its findings.
struct DistinctFindings {
  std::vector<std::string> order;
  std::map<std::string, Distinct> distinct;
  nlohmann::json notifications = nlohmann::json::array();
  std::size_t failed = 0;
};

DistinctFindings distinct_findings(const std::vector<RunRecord>& runs) {
  DistinctFindings all;
  auto& [order, distinct, notifications, failed] = all;
  for (const RunRecord& r : runs) {
    if (!r.passed) ++failed;
    for (const auto& f : r.findings) {
      std::string key = result_key(f);
      auto [it, fresh] = distinct.try_emplace(key);
      if (fresh) {
        order.push_back(key);
        it->second.finding = &f;
        it->second.first = &r;
      }
      Distinct& d = it->second;
      if (d.seen.insert(finding_key(f)).second && !fresh && d.others.size() < 64) d.others.push_back(&f);
      d.runs.push_back(run_identity_to_json(r));
    }
    if (!r.reason.empty())
      notifications.push_back(
          {{"level", "error"},
           {"message", {{"text", valid_utf8(run_name(r) + ": " + r.reason + "; reproduce: " + r.repro)}}}});
  }
  return all;
}

// A result's locations, related locations (the same finding at other processes) and thread flows
// (one per process involved), and the processes it involves.
struct ResultPlaces {
  nlohmann::json locations = nlohmann::json::array();
  nlohmann::json related = nlohmann::json::array();
  nlohmann::json thread_flows = nlohmann::json::array();
  std::set<long long> processes;
};

ResultPlaces result_places(const Distinct& d, const SarifPaths& at, const std::string& program) {
  const Finding& f = *d.finding;
  ResultPlaces out;
  auto& [locations, related, thread_flows, processes] = out;
  std::map<long long, nlohmann::json> per_process;  // process -> its thread flow locations
  for (const Location& l : f.locations) {
    nlohmann::json loc = sarif_location(l, at);
    if (loc.contains("physicalLocation") || loc.contains("logicalLocations")) locations.push_back(loc);
    per_process[l.process].push_back({{"location", loc}});
  }
  // The same finding at other processes: their call sites as related locations and flows.
  processes.insert(f.processes.begin(), f.processes.end());
  for (const Finding* o : d.others) {
    for (const Location& l : o->locations) {
      nlohmann::json loc = sarif_location(l, at);
      if (!per_process.count(l.process)) per_process[l.process].push_back({{"location", loc}});
      if (loc.contains("physicalLocation") || loc.contains("logicalLocations")) {
        loc["id"] = static_cast<int>(related.size());
        related.push_back(loc);
      }
    }
    processes.insert(o->processes.begin(), o->processes.end());
  }
  for (const long long p : processes)
    if (!per_process.count(p))
      per_process[p].push_back(
          {{"location",
            {{"message", {{"text", "process " + std::to_string(p) + " is involved; no call site recorded"}}}}}});
  for (auto& [pid, locs] : per_process)
    thread_flows.push_back(
        {{"id", pid >= 0 ? "process " + std::to_string(pid) : std::string("process unknown")}, {"locations", locs}});

  if (locations.empty()) {
    // Every result has a location (GitHub code scanning rejects one without): when the finding
    // names no call site (a divergence of outputs, a timeout), the program itself.
    nlohmann::json loc = nlohmann::json::object();
    loc["physicalLocation"] = {{"artifactLocation", artifact_location(program, at)}};
    loc["message"] = {{"text", "the program; the finding names no call site"}};
    locations.push_back(loc);
  }
  return out;
}

// Calls made through a wrapper, failed allocations: their stacks, one per distinct stack.
nlohmann::json result_stacks(const Finding& f, const SarifPaths& at) {
  nlohmann::json stacks = nlohmann::json::array();
  std::vector<const std::vector<StackFrame>*> stacks_seen;
  for (const Location& l : f.locations) {
    if (l.stack.empty() ||
        std::any_of(stacks_seen.begin(), stacks_seen.end(), [&](const auto* seen) { return *seen == l.stack; }))
      continue;
    stacks_seen.push_back(&l.stack);
    nlohmann::json frames = nlohmann::json::array();
    for (const StackFrame& fr : l.stack) {
      nlohmann::json loc = nlohmann::json::object();
      if (!fr.file.empty()) loc["physicalLocation"] = physical_location(valid_utf8(fr.file), fr.line, at);
      if (!fr.function.empty())
        loc["logicalLocations"] =
            nlohmann::json::array({{{"fullyQualifiedName", valid_utf8(fr.function)}, {"kind", "function"}}});
      frames.push_back({{"location", loc}});
    }
    stacks.push_back({{"message", {{"text", "the stack (" + call_and_process(l) + ")"}}}, {"frames", frames}});
  }
  return stacks;
}

nlohmann::json sarif_result(const std::string& key, const Distinct& d, SarifRules& rules, const SarifPaths& at,
                            const std::string& program) {
  const Finding& f = *d.finding;
  const std::string rule = valid_utf8(f.rule);
  const std::string level = severity_name(f.severity);
  if (!rules.index.count(rule)) rules.add(rule, level, "rule " + rule);
  ResultPlaces places = result_places(d, at, program);
  const auto& [locations, related, thread_flows, processes] = places;
  nlohmann::json result = {
      {"ruleId", rule},         {"ruleIndex", rules.index[rule]},
      {"level", level},         {"message", {{"text", valid_utf8(f.message)}}},
      {"locations", locations}, {"partialFingerprints", {{"bspCheckFinding/v1", fingerprint_v1(key)}}}};
  if (!related.empty()) result["relatedLocations"] = related;
  const nlohmann::json stacks = result_stacks(f, at);
  if (!stacks.empty()) result["stacks"] = stacks;
  if (!thread_flows.empty()) result["codeFlows"] = nlohmann::json::array({{{"threadFlows", thread_flows}}});
  result["properties"] = {{"seed", d.first->seed},
                          {"procs", d.first->p},
                          {"superstep", f.superstep},
                          {"processes", processes},
                          {"reproduce", valid_utf8(d.first->repro)},
                          {"occurrences", d.runs.size()},
                          {"runs", d.runs}};
  return result;
}

}  // namespace

nlohmann::json sarif_log(const SessionInfo& s, const std::vector<RunRecord>& runs) {
  const SarifPaths at = sarif_paths(s.source_root);
  SarifRules rules = catalogue_rules();
  DistinctFindings all = distinct_findings(runs);
  auto& [order, distinct, notifications, failed] = all;
  nlohmann::json results = nlohmann::json::array();
  for (const std::string& key : order) results.push_back(sarif_result(key, distinct[key], rules, at, s.program));
  if (!s.interrupted_by.empty())  // the results are those of the runs that finished
    notifications.push_back(
        {{"level", "error"},
         {"message",
          {{"text", "interrupted by " + s.interrupted_by + " after " + std::to_string(runs.size()) + " runs"}}}});
  for (const std::string& line : s.unchecked)
    notifications.push_back({{"level", "note"}, {"message", {{"text", "not checked: " + valid_utf8(line)}}}});
  nlohmann::json invocation = {{"executionSuccessful", s.interrupted_by.empty()},
                               {"commandLine", valid_utf8(s.command_line)},
                               {"toolExecutionNotifications", notifications}};
  nlohmann::json run = {
      {"tool",
       {{"driver",
         {{"name", "bsp-check"},
          {"version", s.version},
          {"semanticVersion", s.version},
          {"informationUri", BSPCHECK_INFORMATION_URI},
          {"rules", rules.rules}}}}},
      {"invocations", nlohmann::json::array({invocation})},
      {"originalUriBaseIds", {{kSrcRoot, {{"uri", "file://" + path_uri((at.root / "").generic_string())}}}}},
      {"results", results},
      {"properties",
       {{"program", valid_utf8(s.program)}, {"runs", runs.size()}, {"failedRuns", failed}, {"werror", s.werror}}}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", nlohmann::json::array({run})}};
}

}  // namespace bspcheck::cli
