// tools/reports/reports: the key that makes findings of different runs one, text made safe for
// XML and JSON, and the SARIF and JUnit files' shape.
#include "tools/reports/reports.hpp"

#include <gtest/gtest.h>

#include <string>

using bspcheck::Finding;
using bspcheck::Location;
using namespace bspcheck::cli;

namespace {

Finding put_past_end(int line) {
  Finding f;
  f.rule = "bounds-put";
  f.severity = bspcheck::Severity::error;
  f.message = "process 1 writes bytes 12..20 of a 16-byte area on process 2";
  f.processes = {1};
  f.superstep = 1;
  Location at;
  at.file = "errs.c";
  at.line = line;
  at.process = 1;
  at.call = "bsp_put";
  f.locations = {at};
  return f;
}

RunRecord failing_run() {
  RunRecord r;
  r.p = 3;
  r.seed = 7;
  r.passed = false;
  r.exit_status = 1;
  r.reported = true;
  r.nprocs = 3;
  r.findings = {put_past_end(12)};
  r.repro = "bsp-check run -p 3 --seed 7 ./errs";
  return r;
}

}  // namespace

TEST(Reports, FindingKeyTellsLocationsApart) {
  EXPECT_EQ(finding_key(put_past_end(12)), finding_key(put_past_end(12)));
  EXPECT_NE(finding_key(put_past_end(12)), finding_key(put_past_end(13)));
}

TEST(Reports, TextIsMadeValidUtf8AndXml) {
  EXPECT_EQ(valid_utf8("plain"), "plain");
  EXPECT_EQ(valid_utf8("\xc3\xa9"), "\xc3\xa9");                  // é stays
  EXPECT_EQ(valid_utf8(std::string("a\xff" "b")), "a\xef\xbf\xbd" "b");  // a bad byte is U+FFFD
  EXPECT_EQ(xml_escape("<a href=\"x\">&'</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
  EXPECT_EQ(xml_escape(std::string("a\x01" "b")), "ab");  // a control XML 1.0 forbids is dropped
}

TEST(Reports, SarifNamesRuleLevelAndLine) {
  SessionInfo s;
  s.program = "./errs";
  s.version = "test";
  const nlohmann::json log = sarif_log(s, {failing_run()});
  EXPECT_EQ(log["version"], "2.1.0");
  const auto& results = log["runs"][0]["results"];
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0]["ruleId"], "bounds-put");
  EXPECT_EQ(results[0]["level"], "error");
  EXPECT_EQ(results[0]["locations"][0]["physicalLocation"]["region"]["startLine"], 12);
}

TEST(Reports, JunitHasATestcasePerRunAndAFailureForTheFailingOne) {
  SessionInfo s;
  s.program = "./errs";
  RunRecord clean;
  clean.p = 3;
  clean.seed = 8;
  clean.passed = true;
  const std::string xml = junit_xml(s, {failing_run(), clean});
  EXPECT_NE(xml.find("tests=\"2\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("failures=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("bounds-put"), std::string::npos) << xml;
}
