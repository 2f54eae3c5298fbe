#include "checker/partial_report.hpp"

#include <algorithm>

#include "checker/finding_codec.hpp"

namespace bspcheck::checker {

namespace {

std::string line_of(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::optional<nlohmann::json> header_of(const std::string& text) {
  const std::size_t end = text.find('\n');
  nlohmann::json j = nlohmann::json::parse(text.substr(0, end), nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("format", std::string()) != kPartialReportFormat)
    return std::nullopt;
  return j;
}

}  // namespace

std::string partial_report_header(nlohmann::json report) {
  report["format"] = kPartialReportFormat;
  report.erase("findings");
  return line_of(report);
}

std::string partial_report_finding(const Finding& f) { return line_of({{"finding", finding_to_json(f)}}); }

std::string partial_report_abort(const std::string& message) { return line_of({{"aborted", message}}); }

bool is_partial_report(const std::string& text) {
  // The header is one short line: its format is named near its start whatever else it holds.
  const std::string head = text.substr(0, text.find('\n'));
  return head.find(std::string("\"format\":\"") + kPartialReportFormat + "\"") != std::string::npos;
}

std::optional<nlohmann::json> partial_report_to_run_report(const std::string& text, std::size_t* dropped) {
  std::optional<nlohmann::json> report = header_of(text);
  if (!report) return std::nullopt;
  nlohmann::json& r = *report;
  r["format"] = "bsp-check-report";
  r["partial"] = true;
  r["completed"] = false;
  r["findings"] = nlohmann::json::array();
  std::size_t skipped = 0;
  for (std::size_t at = text.find('\n'); at != std::string::npos && at + 1 < text.size();) {
    const std::size_t end = text.find('\n', at + 1);
    const std::string line = text.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
    at = end;
    const nlohmann::json event = nlohmann::json::parse(line, nullptr, false);
    if (event.is_object() && event.contains("finding") && event["finding"].is_object()) {
      // Counts as the runtime writes them, unsigned (readers check the type).
      const unsigned superstep = std::max(0, event["finding"].value("superstep", 0));
      r["supersteps"] = std::max(r.value("supersteps", 0u), superstep);
      r["findings"].push_back(event["finding"]);
    } else if (event.is_object() && event.contains("aborted") && event["aborted"].is_string()) {
      r["aborted"] = true;
      r["abort_message"] = event["aborted"];
    } else if (!line.empty()) {
      ++skipped;
    }
  }
  if (dropped) *dropped = skipped;
  return report;
}

}  // namespace bspcheck::checker
