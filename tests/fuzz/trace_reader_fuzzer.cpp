// libFuzzer target for the trace reader (replay/trace_format.cpp, docs/trace-format.md).
//
// Every input is parsed twice: as it is, and with its checksums made right (the header checksum,
// and the end record's checksum when the input has one at a record boundary), so mutations of
// records get past the checksums and reach the rest of the reader. trace::TraceError is the only
// acceptable failure; any other exception, a crash, a hang, a leak or a sanitizer report is a bug.
// A trace that parses is checked for consistency and written back with trace::Writer; reading that
// again must give the same header and events.
//
// Built and run by run_fuzzer.sh (clang++ -fsanitize=fuzzer,address,undefined).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "replay/trace_format.hpp"

namespace trace = bspcheck::trace;

namespace {

[[noreturn]] void bug(const char* what) {
  std::fprintf(stderr, "trace_reader_fuzzer: invariant violated: %s\n", what);
  std::abort();
}

// Walks the input with the grammar of docs/trace-format.md, leniently, and rewrites the stored
// checksums to the ones the reader computes. Stops at anything it cannot walk.
class Fixer {
 public:
  explicit Fixer(std::vector<std::uint8_t>& d) : d_(d) {}
  void run() {
    if (!skip(10)) return;  // signature, version
    if (!str() || !skip(8) || !str()) return;
    std::uint64_t nargs;
    if (!varint(&nargs)) return;
    for (std::uint64_t i = 0; i < nargs; ++i)
      if (!str()) return;
    if (!varint() || !varint() || !str() || !str()) return;
    if (!put_sum()) return;
    while (pos_ < d_.size()) {
      const std::uint8_t tag = d_[pos_++];
      if (tag >= 1 && tag <= 6) {
        if (!varint()) return;
      } else if (tag >= trace::kTagCall && tag < trace::kTagCall + static_cast<std::uint8_t>(trace::Call::count_)) {
        if (!varint() || !varint() || !varint() || !skip(4)) return;
      } else if (tag == trace::kTagSuperstep) {
        if (!varint()) return;
      } else {
        if (tag == trace::kTagEnd) put_sum();
        return;
      }
    }
  }

 private:
  bool skip(std::size_t k) {
    if (d_.size() - pos_ < k) return false;
    pos_ += k;
    return true;
  }
  bool varint(std::uint64_t* out = nullptr) {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= d_.size()) return false;
      const std::uint8_t b = d_[pos_++];
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) {
        if (out) *out = v;
        return true;
      }
    }
    return false;
  }
  bool str() {
    std::uint64_t len;
    return varint(&len) && len <= d_.size() - pos_ && skip(static_cast<std::size_t>(len));
  }
  bool put_sum() {
    if (d_.size() - pos_ < 4) return false;
    // The checksum of the version the input names (bytes 8 and 9): FNV-1a in 1, CRC-32C from 2.
    trace::StreamChecksum sum(static_cast<std::uint16_t>(d_[8] | (d_[9] << 8)));
    sum.add(d_.data(), pos_);
    const std::uint32_t s = sum.value();
    for (int i = 0; i < 4; ++i) d_[pos_++] = static_cast<std::uint8_t>(s >> (8 * i));
    return true;
  }
  std::vector<std::uint8_t>& d_;
  std::size_t pos_ = 0;
};

void check_consistent(const trace::Reader& r, std::size_t n) {
  const trace::Header& h = r.header();
  if (h.version < trace::kOldestFormatVersion || h.version > trace::kFormatVersion) bug("version");
  if (h.procs < 1) bug("procs");
  // The schedulers' names, an exploring run's, and a trace merged from an MPI run's records.
  if (h.strategy != "random" && h.strategy != "round_robin" && h.strategy != "pct" &&
      h.strategy != trace::kExploringStrategy && h.strategy != trace::kMpiStrategy)
    bug("strategy");
  std::size_t last = 0;
  bool first = true;
  for (std::size_t i = 0; i < r.events().size(); ++i) {
    const trace::Event& e = r.events()[i];
    if (e.offset >= n) bug("event offset beyond the input");
    if (!first && e.offset <= last) bug("event offsets not increasing");
    first = false;
    last = e.offset;
    switch (e.type) {
      case trace::Event::choice:
        if (e.kind < 1 || e.kind > 6) bug("choice kind");
        break;
      case trace::Event::call:
        if (static_cast<std::size_t>(e.rec.call) >= static_cast<std::size_t>(trace::Call::count_)) bug("call");
        if (e.rec.pid >= h.procs) bug("pid out of range");
        break;
      case trace::Event::superstep:
        break;
      case trace::Event::end:
        if (i + 1 != r.events().size()) bug("end record not last");
        if (!r.complete()) bug("end record but not complete");
        break;
      default:
        bug("event type");
    }
  }
  if (r.complete() && (r.events().empty() || r.events().back().type != trace::Event::end))
    bug("complete without an end record");
}

// Writes a parsed trace back with trace::Writer and reads it again.
void check_round_trip(const trace::Reader& r) {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/trace_reader_fuzzer." + std::to_string(getpid()) + ".trace";
  }();
  {
    trace::Writer w(path, r.header());
    std::size_t next_work = 0;
    for (std::size_t i = 0; i < r.events().size(); ++i) {
      const trace::Event& e = r.events()[i];
      for (; next_work < r.work().size() && r.work()[next_work].before <= i; ++next_work)
        w.work(r.work()[next_work].pid, r.work()[next_work].ns);
      switch (e.type) {
        case trace::Event::choice: w.choice(e.kind, e.value); break;
        case trace::Event::call: w.call(e.rec); break;
        case trace::Event::superstep: w.superstep(e.value); break;
        case trace::Event::end: w.end(); break;
      }
    }
    for (; next_work < r.work().size(); ++next_work) w.work(r.work()[next_work].pid, r.work()[next_work].ns);
    w.flush();
  }
  const trace::Reader again = trace::Reader::open(path);  // a TraceError here is a bug too
  std::remove(path.c_str());
  const trace::Header &a = r.header(), &b = again.header();
  if (a.version != b.version || a.tool_version != b.tool_version || a.program_digest != b.program_digest ||
      a.program != b.program || a.args != b.args || a.procs != b.procs || a.seed != b.seed ||
      a.strategy != b.strategy || a.checks != b.checks)
    bug("round trip: header differs");
  if (r.complete() != again.complete()) bug("round trip: completeness differs");
  if (r.events().size() != again.events().size()) bug("round trip: event count differs");
  if (r.work().size() != again.work().size()) bug("round trip: work record count differs");
  for (std::size_t i = 0; i < r.work().size(); ++i)
    if (r.work()[i].pid != again.work()[i].pid || r.work()[i].ns != again.work()[i].ns ||
        r.work()[i].before != again.work()[i].before)
      bug("round trip: work record differs");
  for (std::size_t i = 0; i < r.events().size(); ++i) {
    const trace::Event &x = r.events()[i], &y = again.events()[i];
    if (x.type != y.type || x.kind != y.kind || x.value != y.value || !(x.rec == y.rec))
      bug("round trip: event differs");
  }
}

void parse_one(const std::uint8_t* data, std::size_t n) {
  try {
    const trace::Reader r = trace::Reader::parse(data, n, "fuzz");
    check_consistent(r, n);
    try {
      check_round_trip(r);
    } catch (const trace::TraceError& e) {
      std::fprintf(stderr, "round trip: %s\n", e.what());
      bug("round trip: the written trace does not read");
    }
  } catch (const trace::TraceError& e) {
    const std::string msg = e.what();
    if (msg.rfind("fuzz: ", 0) != 0) bug("TraceError message does not name the origin");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  parse_one(data, size);
  std::vector<std::uint8_t> fixed(data, data + size);
  Fixer(fixed).run();
  parse_one(fixed.data(), fixed.size());
  return 0;
}
