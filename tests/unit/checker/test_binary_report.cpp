// The run report's binary form (checker/binary_report.hpp): it carries what the JSON form
// carries, reads back the same as the JSON form would, and rejects every damaged report without
// reading past its end.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "checker/binary_report.hpp"
#include "checker/finding_codec.hpp"

namespace {

using bspcheck::Finding;
using bspcheck::Location;
using bspcheck::Severity;
using bspcheck::checker::RunReport;
namespace checker = bspcheck::checker;

RunReport full_report() {
  RunReport r;
  r.seed = 0xFEDCBA9876543210ULL;
  r.procs_available = 7;
  r.completed = true;
  r.nprocs = 5;
  r.supersteps = 300;
  r.aborted = true;
  r.abort_message = "stopped: \xc3\xa9t\xc3\xa9 \xe2\x82\xac";  // été €
  r.switches = 1ULL << 40;
  r.output_hash = {0, 1, 0xFFFFFFFFFFFFFFFFULL, 0x0123456789ABCDEFULL, 42};
  r.trace_bytes = 123456789;
  r.trace_calls = 987654;
  r.coverage = {{0, 1, 2}, {-1, 127, 128}, {1 << 20, -5, 0}};
  Finding f;
  f.rule = "bounds-put";
  f.severity = Severity::error;
  f.message = "process 1 wrote 8 bytes past the end\nsecond line";
  f.processes = {1, 4, -1};
  f.superstep = 3;
  Location a{"put.c", 14, 1, "bsp_put", {}, "waiting in bsp_sync"};  // a timeout's location has a state
  Location b{"", 0, -1, "", {{"Reg::Reg(int*)", "reg.hpp", 8}, {"main", "", 0}}, {}};
  f.locations = {a, b};
  Finding w;
  w.rule = "unconsumed-queue";
  w.severity = Severity::warning;
  r.findings = {f, w};
  r.unchecked = {"hp-dst-read: not watched"};
  r.hp_race_probes = {"1/1/0/0/4/0/12/a%3Ab.c"};
  return r;
}

// Both forms compared through the JSON they produce, which names every field (a damaged report
// may hold invalid UTF-8, which only the binary form's encoder replaces).
std::string as_json(const RunReport& r) {
  return checker::run_report_to_json(r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

RunReport through_bytes(const RunReport& r) {
  RunReport back;
  EXPECT_TRUE(checker::run_report_from_bytes(checker::run_report_to_bytes(r), back));
  return back;
}

RunReport through_json(const RunReport& r) {
  RunReport back;
  const std::string text =
      checker::run_report_to_json(r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  EXPECT_TRUE(checker::run_report_from_json(text, back));
  return back;
}

TEST(BinaryReport, CarriesEveryField) {
  const RunReport r = full_report();
  const std::string bytes = checker::run_report_to_bytes(r);
  EXPECT_TRUE(checker::is_binary_report(bytes));
  EXPECT_EQ(as_json(through_bytes(r)), as_json(r));
  // Compact: well under the JSON text of the same report.
  EXPECT_LT(bytes.size() * 2, checker::run_report_to_json(r).dump().size());
}

// The report a run writes while it goes on (at each finding) is the same bytes, written into a
// fixed buffer without allocating; one that does not fit is not written at all.
TEST(BinaryReport, IntoABufferAsIntoAString) {
  RunReport r = full_report();
  const std::vector<Finding> findings = r.findings, none;
  char buf[4096];
  const std::size_t n = checker::run_report_to_buffer(r, {&none, &findings}, buf, sizeof buf);
  EXPECT_EQ(std::string(buf, n), checker::run_report_to_bytes(r));
  EXPECT_EQ(checker::run_report_to_buffer(r, {&findings}, buf, n - 1), 0u) << "one byte short";
  r.trace_calls = 0;  // no trace: nor its size, as in the string form
  EXPECT_EQ(std::string(buf, checker::run_report_to_buffer(r, {&findings}, buf, sizeof buf)),
            checker::run_report_to_bytes(r));
}

TEST(BinaryReport, ReadsBackAsTheJsonFormWould) {
  RunReport r = full_report();
  EXPECT_EQ(as_json(through_bytes(r)), as_json(through_json(r)));
  // What the JSON form leaves out without bsp_begin, or without a trace's calls, reads back as
  // its default in both.
  r.nprocs = 0;
  r.trace_calls = 0;
  EXPECT_EQ(as_json(through_bytes(r)), as_json(through_json(r)));
  EXPECT_EQ(through_bytes(r).supersteps, 0);
  EXPECT_EQ(through_bytes(r).findings.size(), 2u);
  r = full_report();
  r.trace_calls = 0;
  EXPECT_EQ(through_bytes(r).trace_bytes, 0u);
  EXPECT_EQ(as_json(through_bytes(r)), as_json(through_json(r)));
}

TEST(BinaryReport, InvalidUtf8IsReplacedAsInJson) {
  std::mt19937_64 rng(7);
  const std::string samples[] = {"\xff",        "a\xc3",        "\xc3(",
                                 "\xe2\x82",    "\xed\xa0\x80", "\xf4\x90\x80\x80",
                                 "\xc0\xaf",    "\xe0\x80\xaf", "ok\xf0\x9f\x98\x80ok",
                                 "\xf0\x9f\x98"};
  std::vector<std::string> strings(std::begin(samples), std::end(samples));
  for (int k = 0; k < 3000; ++k) {  // random bytes, most of them past 0x7F
    std::string s(rng() % 9, '\0');
    for (char& c : s) c = static_cast<char>(rng() % 4 == 0 ? 'a' + rng() % 26 : 0x80 + rng() % 128);
    strings.push_back(s);
  }
  for (const std::string& s : strings) {
    RunReport r = full_report();
    r.abort_message = s;
    r.findings[0].message = s;
    r.findings[0].locations[1].stack[0].function = s;
    // The strings themselves: a JSON dump would replace what is left invalid, and hide it.
    const RunReport b = through_bytes(r), j = through_json(r);
    ASSERT_EQ(b.abort_message, j.abort_message) << "string of " << s.size() << " bytes";
    ASSERT_EQ(b.findings[0].message, j.findings[0].message);
    ASSERT_EQ(b.findings[0].locations[1].stack[0].function, j.findings[0].locations[1].stack[0].function);
  }
}

TEST(BinaryReport, EveryTruncationAndExtensionIsRejected) {
  const std::string bytes = checker::run_report_to_bytes(full_report());
  RunReport out;
  for (std::size_t n = 0; n < bytes.size(); ++n)
    EXPECT_FALSE(checker::run_report_from_bytes(std::string_view(bytes).substr(0, n), out)) << n;
  EXPECT_FALSE(checker::run_report_from_bytes(bytes + '\0', out));
  std::string other_version = bytes;
  other_version[4] = static_cast<char>(other_version[4] + 1);  // the next version, whichever this is
  EXPECT_FALSE(checker::run_report_from_bytes(other_version, out));
  EXPECT_FALSE(checker::run_report_from_bytes("{\"seed\": 1}", out));
  EXPECT_FALSE(checker::is_binary_report("{\"seed\": 1}"));
}

TEST(BinaryReport, HugeCountsAreRejectedWithoutAllocating) {
  RunReport r;
  r.nprocs = 0;
  std::string bytes = checker::run_report_to_bytes(r);
  ASSERT_EQ(bytes.back(), '\0');  // no findings: the last byte is their count
  bytes.back() = '\xff';          // a count of 2^63 - 1 in ten bytes
  bytes.append(8, '\xff');
  bytes += '\x7f';
  RunReport out;
  EXPECT_FALSE(checker::run_report_from_bytes(bytes, out));
}

TEST(BinaryReport, DamagedReportsNeverReadPastTheirEnd) {
  // Run under ASan in CI: a read past the end, or an allocation sized by a damaged count, fails
  // there; here each damaged report must decode or be rejected, and one that decodes must encode
  // back to itself (no byte of it read twice or skipped).
  const std::string bytes = checker::run_report_to_bytes(full_report());
  std::mt19937_64 rng(11);
  int decoded = 0;
  for (int k = 0; k < 20000; ++k) {
    std::string d = bytes;
    for (int flips = 1 + static_cast<int>(rng() % 3); flips > 0; --flips)
      d[5 + rng() % (d.size() - 5)] = static_cast<char>(rng());
    RunReport out;
    if (!checker::run_report_from_bytes(d, out)) continue;
    ++decoded;
    RunReport again;
    ASSERT_TRUE(checker::run_report_from_bytes(checker::run_report_to_bytes(out), again));
    ASSERT_EQ(as_json(again), as_json(out));
  }
  EXPECT_GT(decoded, 0);  // some damage only changes a value
}

}  // namespace
