#include "checker/binary_report.hpp"

#include <cstdint>
#include <cstring>

#include <nlohmann/json.hpp>

#include "runtime/base/utf8.hpp"
#include "runtime/base/varint.hpp"

namespace bspcheck::checker {

namespace {

constexpr char kMagic[4] = {'B', 'S', 'P', 'B'};
// 2: RunReport::unchecked after the findings; a location's state. 3: RunReport::hp_race_probes last.
constexpr std::uint8_t kVersion = 3;

// An invalid string as the JSON report carries it: through nlohmann::json's own replacement, so
// that the two forms cannot differ.
std::string replaced_as_json_would(const std::string& s) {
  return nlohmann::json::parse(nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
      .get<std::string>();
}

class Writer {
 public:
  Writer() = default;
  // Into buf, at most cap bytes, without allocating (but for a string that is not valid UTF-8).
  Writer(char* buf, std::size_t cap) : buf_(buf), cap_(cap) {}
  void raw(const void* p, std::size_t n) { put(static_cast<const char*>(p), n); }
  void u(std::uint64_t v) {
    std::uint8_t buf[rt::kMaxLeb128Bytes];
    put(reinterpret_cast<const char*>(buf), static_cast<std::size_t>(rt::leb128_encode(buf, v) - buf));
  }
  void i(std::int64_t v) { u(rt::zigzag(v)); }
  void b(bool v) {
    const char c = v ? 1 : 0;
    put(&c, 1);
  }
  void s(const std::string& v) {
    const std::string& text = rt::is_valid_utf8(v) ? v : scratch_ = replaced_as_json_would(v);
    u(text.size());
    put(text.data(), text.size());
  }
  void digest(std::uint64_t v) {
    unsigned char buf[8];
    for (int k = 0; k < 8; ++k) buf[k] = static_cast<unsigned char>(v >> (8 * k));
    raw(buf, 8);
  }
  std::string take() { return std::move(out_); }
  std::size_t written() const { return full_ ? 0 : used_; }  // into the buffer; 0: it did not fit

 private:
  void put(const char* p, std::size_t n) {
    if (!buf_) {
      out_.append(p, n);
    } else if (n > cap_ - used_) {
      full_ = true;
    } else {
      std::memcpy(buf_ + used_, p, n);
      used_ += n;
    }
  }

  std::string out_, scratch_;
  char* buf_ = nullptr;
  std::size_t cap_ = 0, used_ = 0;
  bool full_ = false;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : p_(in.data()), end_(in.data() + in.size()) {}
  bool ok() const { return ok_; }
  bool at_end() const { return p_ == end_; }
  std::size_t left() const { return static_cast<std::size_t>(end_ - p_); }

  std::uint64_t u() {
    bool cut = false;  // the input ends inside the varint
    std::uint64_t v = 0;
    const bool ended = rt::leb128_decode(
        [&]() -> std::uint8_t {
          if (p_ == end_) return cut = true, 0;
          return static_cast<std::uint8_t>(*p_++);
        },
        v);
    return ended && !cut ? v : fail();  // cut short, or longer than any 64-bit value
  }
  std::int64_t i() { return rt::unzigzag(u()); }
  int i32() {
    const std::int64_t v = i();
    if (v < INT32_MIN || v > INT32_MAX) return static_cast<int>(fail());
    return static_cast<int>(v);
  }
  bool b() {
    if (p_ == end_ || static_cast<unsigned char>(*p_) > 1) return fail() != 0;
    return *p_++ == 1;
  }
  std::string s() {
    const std::uint64_t n = u();
    if (!ok_ || n > left()) return fail(), std::string();
    std::string v(p_, static_cast<std::size_t>(n));
    p_ += n;
    return v;
  }
  std::uint64_t digest() {
    if (left() < 8) return fail();
    std::uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v |= std::uint64_t{static_cast<unsigned char>(p_[k])} << (8 * k);
    p_ += 8;
    return v;
  }
  // A list's length, which cannot be more than the bytes left (every entry takes at least one).
  std::size_t count() {
    const std::uint64_t n = u();
    if (!ok_ || n > left()) return static_cast<std::size_t>(fail());
    return static_cast<std::size_t>(n);
  }
  bool magic() {
    if (left() < sizeof kMagic + 1 || std::memcmp(p_, kMagic, sizeof kMagic) != 0 ||
        static_cast<std::uint8_t>(p_[sizeof kMagic]) != kVersion)
      return fail() != 0;
    p_ += sizeof kMagic + 1;
    return true;
  }

 private:
  std::uint64_t fail() {
    ok_ = false;
    p_ = end_;  // every later read fails at once
    return 0;
  }
  const char* p_;
  const char* end_;
  bool ok_ = true;
};

void write_finding(Writer& w, const Finding& f) {
  w.s(f.rule);
  w.u(f.severity == Severity::error ? 1 : 0);
  w.s(f.message);
  w.u(f.processes.size());
  for (int p : f.processes) w.i(p);
  w.i(f.superstep);
  w.u(f.locations.size());
  for (const Location& l : f.locations) {
    w.s(l.file);
    w.i(l.line);
    w.i(l.process);
    w.s(l.call);
    w.s(l.state);
    w.u(l.stack.size());
    for (const StackFrame& fr : l.stack) {
      w.s(fr.function);
      w.s(fr.file);
      w.i(fr.line);
    }
  }
}

Finding read_finding(Reader& r) {
  Finding f;
  f.rule = r.s();
  const std::uint64_t severity = r.u();
  f.severity = severity == 0 ? Severity::warning : Severity::error;
  f.message = r.s();
  for (std::size_t n = r.count(), k = 0; k < n && r.ok(); ++k) f.processes.push_back(r.i32());
  f.superstep = r.i32();
  for (std::size_t n = r.count(), k = 0; k < n && r.ok(); ++k) {
    Location l;
    l.file = r.s();
    l.line = r.i32();
    l.process = r.i32();
    l.call = r.s();
    l.state = r.s();
    for (std::size_t m = r.count(), j = 0; j < m && r.ok(); ++j) {
      StackFrame fr;
      fr.function = r.s();
      fr.file = r.s();
      fr.line = r.i32();
      l.stack.push_back(std::move(fr));
    }
    f.locations.push_back(std::move(l));
  }
  return f;
}

}  // namespace

namespace {

// Every field of a report, in the one order both writers use (a string, and a buffer that must not
// allocate): the findings from one or more lists, as one list.
void write_report(Writer& w, const RunReport& r, std::initializer_list<const std::vector<Finding>*> findings) {
  w.raw(kMagic, sizeof kMagic);
  w.raw(&kVersion, 1);
  w.u(r.seed);
  w.i(r.procs_available);
  w.b(r.completed);
  w.i(r.nprocs);
  w.i(r.supersteps);
  w.b(r.aborted);
  w.s(r.abort_message);
  w.u(r.switches);
  w.u(r.output_hash.size());
  for (std::uint64_t h : r.output_hash) w.digest(h);
  w.u(r.trace_calls == 0 ? 0 : r.trace_bytes);  // no trace: nor its size (as the JSON form)
  w.u(r.trace_calls);
  w.u(r.coverage.size());
  for (const CoverageTuple& t : r.coverage) {
    w.i(t.superstep);
    w.i(t.kind);
    w.i(t.outcome);
  }
  std::size_t n = 0;
  for (const std::vector<Finding>* list : findings) n += list->size();
  w.u(n);
  for (const std::vector<Finding>* list : findings)
    for (const Finding& f : *list) write_finding(w, f);
  w.u(r.unchecked.size());
  for (const std::string& line : r.unchecked) w.s(line);
  w.u(r.hp_race_probes.size());
  for (const std::string& probe : r.hp_race_probes) w.s(probe);
}

}  // namespace

std::string run_report_to_bytes(const RunReport& report) {
  // What the JSON form leaves out reads back as the default there: it is not sent here either.
  const RunReport* sent = &report;
  RunReport trimmed;
  if (report.nprocs <= 0) {  // no bsp_begin: the fields of the run are not sent
    trimmed.seed = report.seed;
    trimmed.procs_available = report.procs_available;
    trimmed.completed = report.completed;
    trimmed.findings = report.findings;
    trimmed.unchecked = report.unchecked;
    trimmed.hp_race_probes = report.hp_race_probes;
    sent = &trimmed;
  }
  Writer w;
  write_report(w, *sent, {&sent->findings});
  return w.take();
}

std::size_t run_report_to_buffer(const RunReport& r, std::initializer_list<const std::vector<Finding>*> findings,
                                 char* buf, std::size_t cap) {
  Writer w(buf, cap);
  write_report(w, r, findings);
  return w.written();
}

bool run_report_from_bytes(std::string_view bytes, RunReport& out) {
  Reader rd(bytes);
  if (!rd.magic()) return false;
  RunReport r;
  r.seed = rd.u();
  r.procs_available = rd.i32();
  r.completed = rd.b();
  r.nprocs = rd.i32();
  r.supersteps = rd.i32();
  r.aborted = rd.b();
  r.abort_message = rd.s();
  r.switches = rd.u();
  // Each digest takes 8 bytes: a count past left()/8 is caught by the first short read.
  for (std::size_t n = rd.count(), k = 0; k < n && rd.ok(); ++k) r.output_hash.push_back(rd.digest());
  r.trace_bytes = rd.u();
  r.trace_calls = rd.u();
  for (std::size_t n = rd.count(), k = 0; k < n && rd.ok(); ++k) {
    CoverageTuple t;
    t.superstep = rd.i32();
    t.kind = rd.i32();
    t.outcome = rd.i32();
    r.coverage.push_back(t);
  }
  for (std::size_t n = rd.count(), k = 0; k < n && rd.ok(); ++k) r.findings.push_back(read_finding(rd));
  for (std::size_t n = rd.count(), k = 0; k < n && rd.ok(); ++k) r.unchecked.push_back(rd.s());
  for (std::size_t n = rd.count(), k = 0; k < n && rd.ok(); ++k) r.hp_race_probes.push_back(rd.s());
  if (!rd.ok() || !rd.at_end()) return false;
  out = std::move(r);
  return true;
}

bool is_binary_report(std::string_view bytes) {
  return bytes.size() >= sizeof kMagic && std::memcmp(bytes.data(), kMagic, sizeof kMagic) == 0;
}

}  // namespace bspcheck::checker
