// replay/trace_format.hpp's EventStream: a trace read one record at a time gives the events the
// whole-file Reader gives, keeps work records apart, and reports damage where it finds it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "replay/trace_format.hpp"

namespace trace = bspcheck::trace;

namespace {

std::vector<std::uint8_t> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_bytes(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// Reads every event; the error's text when the trace is refused, "" when it reads to its end.
std::string read_through(const std::string& path) {
  try {
    trace::EventStream s = trace::EventStream::open(path);
    for (trace::Event e; s.next(e);) {
    }
    return s.complete() ? "" : "incomplete";
  } catch (const trace::TraceError& e) {
    return e.what();
  }
}

std::string write_trace(const char* name, int calls, bool end, std::uint16_t version = trace::kFormatVersion) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  trace::Header h;
  h.version = version;
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

// The end record's checksum covers every byte before it, summed a block at a time: a changed byte
// that no record's grammar notices (a call's data checksum) deep in a trace of many blocks is
// found there.
TEST(EventStream, TheEndChecksumCoversEveryBlock) {
  const std::string path = write_trace("bspcheck-unit-sum.trace", 100000, true);
  ASSERT_EQ(read_through(path), "");
  std::vector<std::uint8_t> bytes = file_bytes(path);
  ASSERT_GT(bytes.size(), std::size_t{3} << 16);
  // The last byte of a call record: the top byte of its data checksum, free to be anything.
  std::size_t at = 0;
  {
    trace::Reader r = trace::Reader::open(path);
    for (const trace::Event& e : r.events())
      if (e.type == trace::Event::call && e.offset > (std::size_t{2} << 16)) {
        at = e.offset;
        break;
      }
    ASSERT_GT(at, 0u);
    for (const trace::Event& e : r.events())
      if (e.offset > at) {
        at = e.offset - 1;
        break;
      }
  }
  bytes[at] ^= 0x01;
  write_bytes(path, bytes);
  EXPECT_NE(read_through(path).find("trace checksum does not match"), std::string::npos) << read_through(path);
  std::remove(path.c_str());
}

// Versions 2 to 4 sum a trace's bytes with CRC-32C, version 1 with FNV-1a; traces of every
// version read back, and each is refused when it names a version whose checksum its bytes do not
// have.
TEST(EventStream, EachFormatVersionHasItsChecksum) {
  for (const std::uint16_t version : {std::uint16_t{1}, std::uint16_t{2}, std::uint16_t{3}, std::uint16_t{4}}) {
    SCOPED_TRACE("version " + std::to_string(version));
    const std::string path = write_trace("bspcheck-unit-version.trace", 3000, true, version);
    EXPECT_EQ(read_through(path), "");
    EXPECT_EQ(trace::EventStream::open(path).header().version, version);
    std::vector<std::uint8_t> bytes = file_bytes(path);
    // The end record's checksum: the last four bytes, of everything before them.
    std::uint32_t stored = 0;
    for (int i = 0; i < 4; ++i) stored |= static_cast<std::uint32_t>(bytes[bytes.size() - 4 + i]) << (8 * i);
    const std::size_t before = bytes.size() - 4;
    if (version == 1) {
      EXPECT_EQ(stored, bspcheck::rt::fnv1a32(bytes.data(), before));
    } else {
      bspcheck::rt::Crc32c crc;
      crc.add(bytes.data(), before);
      EXPECT_EQ(stored, crc.value());
    }
    bytes[8] = static_cast<std::uint8_t>(version == 1 ? 2 : 1);  // the version, low byte
    write_bytes(path, bytes);
    EXPECT_NE(read_through(path).find("header checksum does not match"), std::string::npos) << read_through(path);
    std::remove(path.c_str());
  }
}

TEST(EventStream, VersionsItCannotReadAreNamed) {
  const std::string path = write_trace("bspcheck-unit-version5.trace", 10, true);
  std::vector<std::uint8_t> bytes = file_bytes(path);
  bytes[8] = 5;
  write_bytes(path, bytes);
  EXPECT_NE(read_through(path).find("trace format version 5, this bsp-check reads versions 1 to 4"), std::string::npos)
      << read_through(path);
  std::remove(path.c_str());
}

// A memory record (format 4: an MPI rank's, at its end) is a measurement, not an event: the
// events read the same with it, and the reader keeps it. A trace that names version 3 cannot
// hold one: its tag is then an unknown record, as a reader of version 3 finds it.
TEST(EventStream, MemoryRecordsAreKeptApartFromTheEventsFromVersion4) {
  for (const std::uint16_t version : {std::uint16_t{3}, std::uint16_t{4}}) {
    SCOPED_TRACE("version " + std::to_string(version));
    const std::string path =
        (std::filesystem::temp_directory_path() / ("bspcheck-unit-memory." + std::to_string(getpid()) + ".trace"))
            .string();
    trace::Header h;
    h.version = version;
    h.procs = 2;
    h.strategy = "random";
    {
      trace::Writer w(path, h);
      w.choice(1, 1);
      w.superstep(1);
      w.memory(1, std::uint64_t{5} << 30);
      w.end();
    }
    if (version < trace::kMemoryRecordVersion) {
      EXPECT_NE(read_through(path).find("unknown record"), std::string::npos) << read_through(path);
    } else {
      const trace::Reader r = trace::Reader::open(path);
      ASSERT_EQ(r.events().size(), 3u);  // the memory record is none of them
      EXPECT_EQ(r.events()[0].type, trace::Event::choice);
      EXPECT_EQ(r.events()[1].type, trace::Event::superstep);
      EXPECT_EQ(r.events()[2].type, trace::Event::end);
      ASSERT_EQ(r.memory().size(), 1u);
      EXPECT_EQ(r.memory()[0].pid, 1u);
      EXPECT_EQ(r.memory()[0].bytes, std::uint64_t{5} << 30);
      EXPECT_TRUE(r.complete());
    }
    std::remove(path.c_str());
  }
}

// The replay's inline paths (next_small_choice, next_call_if) read exactly what next() reads, in
// every block and at every block boundary, and nothing when the next record is another: choices
// of one, two and three varint bytes, calls with small and large numbers, negatives included.
TEST(EventStream, TheInlinePathsReadWhatNextReads) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("bspcheck-unit-inline." + std::to_string(getpid()) + ".trace"))
          .string();
  struct Expected {
    bool is_choice;
    std::uint8_t kind;
    std::uint64_t value;
    trace::CallRecord rec;
  };
  std::vector<Expected> expected;
  {
    trace::Header h;
    h.procs = 300;
    h.strategy = "random";
    trace::Writer w(path, h);
    std::uint64_t x = 88172645463325252u;
    auto rnd = [&x] {  // xorshift64: a fixed, varied sequence
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      return x;
    };
    const std::uint64_t bounds[] = {2, 128, 129, 16384, 16385, 1u << 30};
    for (int i = 0; i < 60000; ++i) {
      if (rnd() % 2) {
        const std::uint8_t kind = static_cast<std::uint8_t>(1 + rnd() % 3);
        const std::uint64_t value = rnd() % bounds[rnd() % std::size(bounds)];
        w.choice(kind, value);
        expected.push_back({true, kind, value, {}});
      } else {
        trace::CallRecord r;
        r.call = static_cast<trace::Call>(rnd() % static_cast<unsigned>(trace::Call::count_));
        r.pid = static_cast<std::uint32_t>(rnd() % (rnd() % 2 ? 64 : 300));
        r.target = static_cast<long>(rnd() % bounds[rnd() % std::size(bounds)]) - (rnd() % 2 ? 1 : 70);
        r.size = static_cast<long>(rnd() % bounds[rnd() % std::size(bounds)]) - 1;
        r.checksum = static_cast<std::uint32_t>(rnd());
        w.call(r);
        expected.push_back({false, 0, 0, r});
      }
      if (i % 5000 == 4999) w.work(1, 7);  // not an event: skipped by both paths
    }
    w.end();
  }
  {  // bytes after the end record, as a damaged file may have: neither path may take them
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out.write("\x01\x05", 2);
  }
  trace::EventStream s = trace::EventStream::open(path);
  std::size_t inline_reads = 0;
  for (const Expected& want : expected) {
    if (want.is_choice) {
      std::uint64_t v = 0;
      const auto other = static_cast<std::uint8_t>(want.kind % 3 + 1);
      ASSERT_FALSE(s.next_small_choice(other, v)) << "a choice of another kind";
      if (s.next_small_choice(want.kind, v)) {
        ASSERT_LT(want.value, 16384u);
        ASSERT_EQ(v, want.value);
        ++inline_reads;
        continue;
      }
    } else {
      trace::CallRecord wrong = want.rec;
      wrong.checksum ^= 1u << (want.rec.size & 31);
      ASSERT_FALSE(s.next_call_if(wrong)) << "a call with another checksum";
      wrong = want.rec;
      wrong.target += 1;
      ASSERT_FALSE(s.next_call_if(wrong)) << "a call to another process";
      if (s.next_call_if(want.rec)) {
        ++inline_reads;
        continue;
      }
    }
    trace::Event e;  // a record the inline paths leave (large, or across two blocks): next() reads it
    ASSERT_TRUE(s.next(e));
    if (want.is_choice) {
      ASSERT_EQ(e.type, trace::Event::choice);
      ASSERT_EQ(e.kind, want.kind);
      ASSERT_EQ(e.value, want.value);
    } else {
      ASSERT_EQ(e.type, trace::Event::call);
      ASSERT_EQ(e.rec, want.rec);
    }
  }
  trace::Event e;
  ASSERT_TRUE(s.next(e));
  EXPECT_EQ(e.type, trace::Event::end);
  EXPECT_TRUE(s.complete());  // the checksum over every byte, whichever path read it
  EXPECT_GT(inline_reads, expected.size() / 2);
  std::uint64_t v = 0;
  EXPECT_FALSE(s.next_small_choice(1, v));     // nothing after the end record is a choice
  EXPECT_THROW(s.next(e), trace::TraceError);  // it is damage
  std::remove(path.c_str());
}
