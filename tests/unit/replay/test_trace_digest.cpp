// A trace written as a digest (trace_digest=1, the determinism check's runs): one line that says
// what the whole trace would have been, so that two runs compare without writing their events.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "replay/trace_format.hpp"

namespace trace = bspcheck::trace;

namespace {

std::string temp_path(const char* name) { return (std::filesystem::temp_directory_path() / name).string(); }

std::vector<std::uint8_t> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A run's recording of `calls` puts (several 64 KiB blocks from a few thousand on); `changed`:
// one call's data differs (a run that sent other bytes); end: the recording ends, else it is
// flushed only, as a run stopped before its end leaves it.
void record(const std::string& path, bool digest, int calls, int changed = -1, bool end = true) {
  trace::Header h;
  h.procs = 4;
  h.seed = 7;
  h.strategy = "random";
  trace::Writer w(path, h, digest);
  for (int i = 0; i < calls; ++i) {
    w.choice(1, static_cast<std::uint64_t>(i % 4));
    trace::CallRecord r;
    r.call = trace::Call::put;
    r.pid = static_cast<std::uint32_t>(i % 4);
    r.target = (i + 1) % 4;
    r.size = 8;
    r.checksum = static_cast<std::uint32_t>(i * 2654435761u) ^ (i == changed ? 1u : 0u);
    w.call(r);
    if (i % 1000 == 999) w.superstep(static_cast<std::uint64_t>(i / 1000 + 1));
  }
  if (end) w.end();
  else w.flush();
}

}  // namespace

TEST(TraceDigest, SaysTheLengthCallsAndChecksumOfTheWholeTrace) {
  const std::string full = temp_path("bspcheck-unit-digest-full.trace");
  const std::string digest = temp_path("bspcheck-unit-digest.trace");
  record(full, false, 50000);
  record(digest, true, 50000);
  const std::vector<std::uint8_t> bytes = file_bytes(full);
  ASSERT_GT(bytes.size(), 4u * 65536u);  // several blocks, none of which the digest wrote
  const std::optional<trace::Digest> d = trace::read_digest(digest);
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(d->ended);
  EXPECT_EQ(d->bytes, bytes.size());
  EXPECT_EQ(d->calls, 50000u);
  trace::StreamChecksum sum;  // the end record's: of every byte before its own 4
  sum.add(bytes.data(), bytes.size() - 4);
  EXPECT_EQ(d->checksum, sum.value());
  EXPECT_LT(std::filesystem::file_size(digest), 200u);                // one line, rewritten in place
  EXPECT_FALSE(trace::read_digest(full).has_value());                 // a trace is no digest
  EXPECT_THROW(trace::EventStream::open(digest), trace::TraceError);  // nor a digest a trace
  std::remove(full.c_str());
  std::remove(digest.c_str());
}

TEST(TraceDigest, EqualForTheSameEventsOnly) {
  const std::string a = temp_path("bspcheck-unit-digest-a.trace");
  const std::string b = temp_path("bspcheck-unit-digest-b.trace");
  record(a, true, 20000);
  record(b, true, 20000);
  EXPECT_EQ(trace::read_digest(a), trace::read_digest(b));
  record(b, true, 20000, 12345);  // one call's data, in a middle block
  ASSERT_TRUE(trace::read_digest(b).has_value());
  EXPECT_NE(trace::read_digest(a)->checksum, trace::read_digest(b)->checksum);
  EXPECT_EQ(trace::read_digest(a)->bytes, trace::read_digest(b)->bytes);
  record(b, true, 19999);  // one call fewer
  EXPECT_NE(trace::read_digest(a), trace::read_digest(b));
  std::remove(a.c_str());
  std::remove(b.c_str());
}

TEST(TraceDigest, ARecordingCutOffSaysSoAndWhereItsLastFlushLeftIt) {
  const std::string cut = temp_path("bspcheck-unit-digest-cut.trace");
  const std::string ended = temp_path("bspcheck-unit-digest-ended.trace");
  record(cut, true, 3000, -1, false);
  record(ended, true, 3000);
  const std::optional<trace::Digest> c = trace::read_digest(cut), e = trace::read_digest(ended);
  ASSERT_TRUE(c.has_value());
  ASSERT_TRUE(e.has_value());
  EXPECT_FALSE(c->ended);
  EXPECT_TRUE(e->ended);
  EXPECT_EQ(c->calls, 3000u);
  EXPECT_LT(c->bytes, e->bytes);  // the end record
  // An empty file (a run that never recorded) and a missing one hold no digest.
  std::ofstream(cut, std::ios::trunc).close();
  EXPECT_FALSE(trace::read_digest(cut).has_value());
  std::remove(cut.c_str());
  EXPECT_FALSE(trace::read_digest(cut).has_value());
  std::remove(ended.c_str());
}
