// The JUnit XML of a session: one test case per run, a failing run's findings as its failure.
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <sstream>

#include "checker/finding_text.hpp"
#include "tools/reports/reports.hpp"

namespace bspcheck::cli {

namespace {

std::string now_iso8601() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", std::localtime(&t));
  return buf;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

std::string basename_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string junit_xml(const SessionInfo& s, const std::vector<RunRecord>& runs) {
  std::size_t failed = 0;
  for (const RunRecord& r : runs) failed += r.passed ? 0 : 1;
  char host[256] = "localhost";
  gethostname(host, sizeof host - 1);
  const std::string suite = "bsp-check " + s.program;
  const std::string classname = "bsp-check." + basename_of(s.program);
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x << "<testsuites name=\"bsp-check\" tests=\"" << runs.size() << "\" failures=\"" << failed
    << "\" errors=\"0\" skipped=\"0\" time=\"" << seconds_text(s.seconds) << "\">\n";
  x << "  <testsuite name=\"" << xml_escape(suite) << "\" tests=\"" << runs.size() << "\" failures=\"" << failed
    << "\" errors=\"0\" skipped=\"0\" time=\"" << seconds_text(s.seconds) << "\" timestamp=\"" << now_iso8601()
    << "\" hostname=\"" << xml_escape(host) << "\">\n";
  x << "    <properties>\n";
  x << "      <property name=\"program\" value=\"" << xml_escape(s.program) << "\"/>\n";
  x << "      <property name=\"command\" value=\"" << xml_escape(s.command_line) << "\"/>\n";
  x << "      <property name=\"werror\" value=\"" << (s.werror ? "1" : "0") << "\"/>\n";
  if (!s.interrupted_by.empty())
    x << "      <property name=\"interrupted\" value=\"" << xml_escape(s.interrupted_by) << "\"/>\n";
  for (const std::string& line : s.unchecked)
    x << "      <property name=\"unchecked\" value=\"" << xml_escape(line) << "\"/>\n";
  x << "    </properties>\n";
  for (const RunRecord& r : runs) {
    x << "    <testcase name=\"" << xml_escape(run_name(r)) << "\" classname=\"" << xml_escape(classname)
      << "\" time=\"" << seconds_text(r.seconds) << "\"";
    if (r.passed) {
      x << "/>\n";
      continue;
    }
    // The message: the first finding that fails the run (or the reason); the body: every finding
    // in full, then the reason and the reproduce command.
    std::string message, body, type = "failure";
    for (const auto& f : r.findings) {
      if (message.empty() && checker::finding_fails(f, s.werror)) {
        message = checker::finding_headline(f);
        type = f.rule;
      }
      body += checker::render_finding(f, "");
    }
    if (!r.reason.empty()) {
      if (message.empty()) message = r.reason;
      body += "bsp-check: error: " + r.reason + "\n";
    }
    if (message.empty()) message = "the program exited with status " + std::to_string(r.exit_status);
    body += "reproduce: " + r.repro + "\n";
    x << ">\n      <failure message=\"" << xml_escape(message) << "\" type=\"" << xml_escape(type) << "\">"
      << xml_escape(body, false) << "</failure>\n";
    if (!r.out.empty()) x << "      <system-out>" << xml_escape(r.out, false) << "</system-out>\n";
    if (!r.err.empty()) x << "      <system-err>" << xml_escape(r.err, false) << "</system-err>\n";
    x << "    </testcase>\n";
  }
  x << "  </testsuite>\n</testsuites>\n";
  return x.str();
}

}  // namespace bspcheck::cli
