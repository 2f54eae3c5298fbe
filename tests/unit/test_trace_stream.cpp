// replay/trace_format.hpp's EventStream: a trace read one record at a time gives the events the
// whole-file Reader gives, keeps work records apart, and reports damage where it finds it.
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

std::string write_trace(const char* name, int calls, bool end) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  trace::Header h;
  h.procs = 4;
  h.seed = 7;
  h.strategy = "random";
  trace::Writer w(path, h);
  for (int i = 0; i < calls; ++i) {
    w.choice(1, static_cast<std::uint64_t>(i % 4));
    trace::CallRecord r;
    r.call = trace::Call::put;
    r.pid = static_cast<std::uint32_t>(i % 4);
    r.target = (i + 1) % 4;
    r.size = 8 + i % 100;
    r.checksum = static_cast<std::uint32_t>(i * 2654435761u);
    w.call(r);
    if (i % 1000 == 999) {
      w.work(r.pid, 12345);
      w.superstep(static_cast<std::uint64_t>(i / 1000 + 1));
    }
  }
  if (end) w.end();
  w.flush();
  return path;
}

}  // namespace

TEST(EventStream, GivesTheReadersEventsOneAtATime) {
  const std::string path = write_trace("bspcheck-unit-stream.trace", 200000, true);  // a few MB: many blocks
  const trace::Reader whole = trace::Reader::open(path);
  trace::EventStream s = trace::EventStream::open(path);
  EXPECT_EQ(s.header().seed, 7u);
  std::vector<trace::WorkRecord> work;
  std::size_t i = 0;
  for (trace::Event e; s.next(e, &work); ++i) {
    ASSERT_LT(i, whole.events().size());
    const trace::Event& w = whole.events()[i];
    ASSERT_EQ(e.type, w.type) << "event " << i;
    ASSERT_EQ(e.offset, w.offset);
    ASSERT_EQ(e.value, w.value);
    ASSERT_EQ(e.rec, w.rec);
  }
  EXPECT_EQ(i, whole.events().size());
  EXPECT_TRUE(s.complete());
  EXPECT_EQ(work.size(), whole.work().size());
  EXPECT_EQ(work.size(), 200u);
  std::remove(path.c_str());
}

TEST(EventStream, ACutOffTraceEndsWithoutComplete) {
  const std::string path = write_trace("bspcheck-unit-cut.trace", 1000, false);
  trace::EventStream s = trace::EventStream::open(path);
  std::size_t n = 0;
  for (trace::Event e; s.next(e);) ++n;
  EXPECT_EQ(n, 2000u + 1u);  // a choice and a call per step, one superstep marker
  EXPECT_FALSE(s.complete());
  std::remove(path.c_str());
}

TEST(EventStream, DamageInTheBodyIsFoundWhereItIs) {
  const std::string path = write_trace("bspcheck-unit-damaged.trace", 50000, true);
  std::vector<char> bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[bytes.size() / 2] = static_cast<char>(0x7f);  // no record has this tag
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  trace::EventStream s = trace::EventStream::open(path);  // the header is fine
  std::size_t read = 0;
  try {
    for (trace::Event e; s.next(e);) ++read;
    FAIL() << "the damage was not found";
  } catch (const trace::TraceError& e) {
    EXPECT_GT(read, 1000u) << "found only where it is, not before";
    EXPECT_NE(std::string(e.what()).find("corrupted"), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}
