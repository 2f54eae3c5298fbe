#include "checker/finding_codec.hpp"

#include <cstdio>

#include "bspcheck/rules.hpp"

namespace bspcheck::checker {

namespace {

template <typename T>
T field(const nlohmann::json& j, const char* key, T dflt) {
  if (!j.is_object()) return dflt;
  const auto it = j.find(key);
  if (it == j.end()) return dflt;
  if constexpr (std::is_same_v<T, std::string>) return it->is_string() ? it->get<std::string>() : dflt;
  else if constexpr (std::is_same_v<T, bool>) return it->is_boolean() ? it->get<bool>() : dflt;
  else return it->is_number() ? it->get<T>() : dflt;
}

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

nlohmann::json finding_to_json(const Finding& f) {
  nlohmann::json locs = nlohmann::json::array();
  for (const Location& l : f.locations) {
    nlohmann::json loc = {{"file", l.file}, {"line", l.line}, {"process", l.process}, {"call", l.call}};
    if (!l.state.empty()) loc["state"] = l.state;
    if (!l.stack.empty()) {
      nlohmann::json frames = nlohmann::json::array();
      for (const StackFrame& fr : l.stack)
        frames.push_back({{"function", fr.function}, {"file", fr.file}, {"line", fr.line}});
      loc["stack"] = std::move(frames);
    }
    locs.push_back(std::move(loc));
  }
  return {{"rule", f.rule},           {"severity", severity_name(f.severity)},
          {"message", f.message},     {"processes", f.processes},
          {"superstep", f.superstep}, {"locations", locs}};
}

Finding finding_from_json(const nlohmann::json& j) {
  Finding f;
  f.rule = field<std::string>(j, "rule", "");
  f.severity = severity_named(field<std::string>(j, "severity", severity_name(Severity::error)));
  f.message = field<std::string>(j, "message", "");
  f.superstep = field<int>(j, "superstep", 0);
  if (j.is_object() && j.contains("processes") && j["processes"].is_array())
    for (const auto& p : j["processes"])
      if (p.is_number_integer()) f.processes.push_back(p.get<int>());
  if (j.is_object() && j.contains("locations") && j["locations"].is_array())
    for (const auto& l : j["locations"]) {
      Location loc;
      loc.file = field<std::string>(l, "file", "");
      loc.line = field<int>(l, "line", 0);
      loc.process = field<int>(l, "process", -1);
      loc.call = field<std::string>(l, "call", "");
      loc.state = field<std::string>(l, "state", "");
      if (l.is_object() && l.contains("stack") && l["stack"].is_array())
        for (const auto& fr : l["stack"])
          loc.stack.push_back(
              {field<std::string>(fr, "function", ""), field<std::string>(fr, "file", ""), field<int>(fr, "line", 0)});
      f.locations.push_back(std::move(loc));
    }
  return f;
}

nlohmann::json findings_to_json(const std::vector<Finding>& findings, std::uint64_t seed) {
  nlohmann::json list = nlohmann::json::array();
  for (const Finding& f : findings) {
    nlohmann::json jf = finding_to_json(f);
    jf["seed"] = seed;
    list.push_back(std::move(jf));
  }
  return list;
}

nlohmann::json digests_to_json(const std::vector<std::uint64_t>& digests) {
  std::vector<std::string> hashes;
  for (std::uint64_t h : digests) hashes.push_back(hex64(h));
  return hashes;
}

std::vector<std::uint64_t> digests_from_json(const nlohmann::json& j) {
  std::vector<std::uint64_t> digests;
  if (j.is_array())
    for (const auto& h : j)
      digests.push_back(h.is_string() ? std::strtoull(h.get<std::string>().c_str(), nullptr, 16) : 0);
  return digests;
}

nlohmann::json coverage_to_json(const std::vector<CoverageTuple>& tuples) {
  nlohmann::json j = nlohmann::json::array();
  for (const CoverageTuple& t : tuples) j.push_back({t.superstep, t.kind, t.outcome});
  return j;
}

std::vector<CoverageTuple> coverage_from_json(const nlohmann::json& j) {
  std::vector<CoverageTuple> out;
  if (!j.is_array()) return out;
  for (const auto& t : j)
    if (t.is_array() && t.size() == 3 && t[0].is_number_integer() && t[1].is_number_integer() &&
        t[2].is_number_integer())
      out.push_back({t[0].get<int>(), t[1].get<int>(), t[2].get<int>()});
  return out;
}

nlohmann::json run_report_to_json(const RunReport& r) {
  nlohmann::json j;
  j["format"] = "bsp-check-report";
  j["version"] = 1;
  j["seed"] = r.seed;
  j["procs_available"] = r.procs_available;
  j["completed"] = r.completed;
  if (r.nprocs > 0) {
    j["nprocs"] = r.nprocs;
    j["supersteps"] = r.supersteps;
    j["aborted"] = r.aborted;
    j["abort_message"] = r.abort_message;
    j["switches"] = r.switches;
    j["output_hash"] = digests_to_json(r.output_hash);
    if (r.trace_calls > 0) j["trace"] = {{"bytes", r.trace_bytes}, {"calls", r.trace_calls}};
    j["coverage"] = coverage_to_json(r.coverage);
  }
  j["findings"] = findings_to_json(r.findings, r.seed);
  if (!r.unchecked.empty()) j["unchecked"] = r.unchecked;
  if (!r.hp_race_probes.empty()) j["hp_race_probes"] = r.hp_race_probes;
  return j;
}

bool run_report_from_json(const std::string& text, RunReport& out) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const std::exception&) {
    return false;
  }
  if (!j.is_object()) return false;
  RunReport r;
  r.seed = field<std::uint64_t>(j, "seed", 0);
  r.procs_available = field<int>(j, "procs_available", 0);
  r.completed = field<bool>(j, "completed", false);
  r.nprocs = field<int>(j, "nprocs", 0);
  r.supersteps = field<int>(j, "supersteps", 0);
  r.aborted = field<bool>(j, "aborted", false);
  r.abort_message = field<std::string>(j, "abort_message", "");
  r.switches = field<std::uint64_t>(j, "switches", 0);
  if (j.contains("output_hash")) r.output_hash = digests_from_json(j["output_hash"]);
  if (j.contains("trace") && j["trace"].is_object()) {
    r.trace_bytes = field<std::uint64_t>(j["trace"], "bytes", 0);
    r.trace_calls = field<std::uint64_t>(j["trace"], "calls", 0);
  }
  if (j.contains("coverage")) r.coverage = coverage_from_json(j["coverage"]);
  if (j.contains("findings") && j["findings"].is_array())
    for (const auto& f : j["findings"]) r.findings.push_back(finding_from_json(f));
  if (j.contains("unchecked") && j["unchecked"].is_array())
    for (const auto& line : j["unchecked"])
      if (line.is_string()) r.unchecked.push_back(line.get<std::string>());
  if (j.contains("hp_race_probes") && j["hp_race_probes"].is_array())
    for (const auto& probe : j["hp_race_probes"])
      if (probe.is_string()) r.hp_race_probes.push_back(probe.get<std::string>());
  out = std::move(r);
  return true;
}

}  // namespace bspcheck::checker
