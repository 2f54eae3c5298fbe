#include "replay/trace_format.hpp"

#include "runtime/option_values.hpp"

#include <cstring>
#include <sstream>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace bspcheck::trace {

const char* call_name(Call c) {
  static const char* names[] = {"bsp_begin", "bsp_end", "bsp_sync", "bsp_abort", "bsp_push_reg", "bsp_pop_reg",
                                "bsp_put", "bsp_hpput", "bsp_get", "bsp_hpget", "bsp_set_tagsize", "bsp_send",
                                "bsp_qsize", "bsp_get_tag", "bsp_move", "bsp_hpmove", "bsp_time",
                                "cBSP_initialize", "cBSP_send", "cBSP_nsync", "cBSP_gsync",
                                "bspk_malloc", "bspk_lookup", "bspk_free", "bspk_sync", "bspk_expect",
                                "bspk_will_send", "bspk_send", "bspk_recv", "bspk_copy (store)",
                                "bspk_copy (fetch)", "bspk_copy (local)"};
  static_assert(std::size(names) == static_cast<std::size_t>(Call::count_));
  auto i = static_cast<std::size_t>(c);
  return i < std::size(names) ? names[i] : "?";
}

std::uint32_t checksum(const void* p, std::size_t n) {
  return rt::fnv1a32(p, n);  // 32 bits: enough to notice a different payload
}

// --- writing ------------------------------------------------------------------------------------

Writer::Writer(const std::string& path, const Header& h) {
  f_ = std::fopen(path.c_str(), "wb");
  if (!f_) throw TraceError(path + ": cannot write the trace: " + std::strerror(errno));
  std::setvbuf(f_, nullptr, _IOFBF, 1 << 16);
  for (char c : kMagic) put_byte(static_cast<std::uint8_t>(c));
  put_byte(static_cast<std::uint8_t>(h.version & 0xff));
  put_byte(static_cast<std::uint8_t>(h.version >> 8));
  auto put_string = [&](const std::string& s) {
    put_varint(s.size());
    for (char c : s) put_byte(static_cast<std::uint8_t>(c));
  };
  put_string(h.tool_version);
  for (int i = 0; i < 8; ++i) put_byte(static_cast<std::uint8_t>(h.program_digest >> (8 * i)));
  put_string(h.program);
  put_varint(h.args.size());
  for (const std::string& a : h.args) put_string(a);
  put_varint(h.procs);
  put_varint(h.seed);
  put_string(h.strategy);
  put_string(h.checks);
  put_u32(sum_.value());  // the header's checksum: a damaged header is refused, not misread
  flush();
}

Writer::~Writer() {
  if (f_) std::fclose(f_);
}

void Writer::put_byte(std::uint8_t b) {
  std::fputc(b, f_);
  ++bytes_;
  sum_.add(b);
}

void Writer::put_u32(std::uint32_t v) {
  const std::uint32_t keep = v;
  for (int i = 0; i < 4; ++i) put_byte(static_cast<std::uint8_t>(keep >> (8 * i)));
}

void Writer::put_varint(std::uint64_t v) {
  while (v >= 0x80) {
    put_byte(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  put_byte(static_cast<std::uint8_t>(v));
}

void Writer::put_svarint(std::int64_t v) {  // zigzag: small negatives stay small
  put_varint((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63));
}

void Writer::choice(std::uint8_t kind, std::uint64_t value) {
  put_byte(kind);
  put_varint(value);
}

void Writer::call(const CallRecord& r) {
  ++calls_;
  put_byte(static_cast<std::uint8_t>(kTagCall + static_cast<std::uint8_t>(r.call)));
  put_varint(r.pid);
  put_svarint(r.target);
  put_svarint(r.size);
  for (int i = 0; i < 4; ++i) put_byte(static_cast<std::uint8_t>(r.checksum >> (8 * i)));
}

void Writer::superstep(std::uint64_t n) {
  put_byte(kTagSuperstep);
  put_varint(n);
}

void Writer::work(std::uint32_t pid, std::uint64_t ns) {
  put_byte(kTagWork);
  put_varint(pid);
  put_varint(ns);
}

void Writer::end() {
  put_byte(kTagEnd);
  put_u32(sum_.value());  // checksum of everything before: a complete trace is verified whole
  flush();
}

void Writer::flush() { std::fflush(f_); }

// --- reading ------------------------------------------------------------------------------------

namespace {

class Cursor {
 public:
  Cursor(const std::uint8_t* d, std::size_t n, const std::string& origin) : d_(d), n_(n), origin_(origin) {}
  bool at_end() const { return pos_ >= n_; }
  std::size_t pos() const { return pos_; }
  [[noreturn]] void fail(const std::string& what) const {
    throw TraceError(origin_ + ": " + what + " at byte " + std::to_string(pos_));
  }
  std::uint8_t byte(const char* what) {
    if (pos_ >= n_) fail(std::string("truncated (") + what + ")");
    sum_.add(d_[pos_]);
    return d_[pos_++];
  }
  // Reads a stored checksum and compares it with the one of the bytes before it.
  void verify(const char* what) {
    const std::uint32_t expected = sum_.value();
    std::uint32_t stored = 0;
    for (int i = 0; i < 4; ++i) stored |= static_cast<std::uint32_t>(byte(what)) << (8 * i);
    if (stored != expected) fail(std::string("corrupted: ") + what + " does not match");
  }
  std::uint64_t varint(const char* what) {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      std::uint8_t b = byte(what);
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    fail(std::string("corrupted: an overlong number (") + what + ")");
  }
  std::int64_t svarint(const char* what) {
    std::uint64_t z = varint(what);
    return static_cast<std::int64_t>(z >> 1) ^ -static_cast<std::int64_t>(z & 1);
  }
  std::string string(const char* what, std::size_t limit) {
    std::uint64_t len = varint(what);
    if (len > limit || len > n_ - pos_) fail(std::string("corrupted: bad length of ") + what);
    std::string s(reinterpret_cast<const char*>(d_ + pos_), len);
    sum_.add(d_ + pos_, len);
    pos_ += len;
    return s;
  }

 private:
  const std::uint8_t* d_;
  std::size_t n_;
  std::size_t pos_ = 0;
  const std::string& origin_;
  rt::Fnv1a32 sum_;  // of every byte read so far
};

}  // namespace

Reader Reader::open(const std::string& path) {
  // Bounded and fast on anything that is not a trace: a folder is refused by name, the signature
  // is read before the rest, and a file without a size (a pipe, /dev/zero) is read up to a limit.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw TraceError(path + ": is a directory, not a trace");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TraceError(path + ": cannot read the trace: " + std::strerror(errno));
  std::vector<std::uint8_t> bytes(sizeof kMagic);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (static_cast<std::size_t>(in.gcount()) != sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    throw TraceError(path + ": not a bsp-check trace (no BSPTRACE signature)");
  constexpr std::size_t kMaxUnsizedTrace = std::size_t{256} << 20;  // a piped trace larger than this is not one
  const bool sized = std::filesystem::is_regular_file(path, ec);
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    bytes.insert(bytes.end(), buf, buf + in.gcount());
    if (!sized && bytes.size() > kMaxUnsizedTrace)
      throw TraceError(path + ": more than " + std::to_string(kMaxUnsizedTrace >> 20) +
                       " MiB from a file that is not a regular file: not a trace");
  }
  return parse(bytes.data(), bytes.size(), path);
}

Reader Reader::parse(const std::uint8_t* data, std::size_t n, const std::string& origin) {
  Reader r;
  Cursor c(data, n, origin);
  if (n < sizeof kMagic || std::memcmp(data, kMagic, sizeof kMagic) != 0)
    throw TraceError(origin + ": not a bsp-check trace (no BSPTRACE signature)");
  for (std::size_t i = 0; i < sizeof kMagic; ++i) c.byte("signature");
  Header& h = r.header_;
  h.version = c.byte("version");
  h.version |= static_cast<std::uint16_t>(c.byte("version") << 8);
  if (h.version != kFormatVersion)
    throw TraceError(origin + ": trace format version " + std::to_string(h.version) + ", this bsp-check reads version " +
                     std::to_string(kFormatVersion));
  h.tool_version = c.string("tool version", 64);
  for (int i = 0; i < 8; ++i) h.program_digest |= static_cast<std::uint64_t>(c.byte("program digest")) << (8 * i);
  h.program = c.string("program", 4096);
  const std::uint64_t nargs = c.varint("argument count");
  if (nargs > 100000) c.fail("corrupted: bad argument count");
  for (std::uint64_t i = 0; i < nargs; ++i) h.args.push_back(c.string("argument", 1 << 20));
  const std::uint64_t procs = c.varint("processors");
  if (procs < 1 || procs > 100000000) c.fail("corrupted: bad processor count");
  h.procs = static_cast<std::uint32_t>(procs);
  h.seed = c.varint("seed");
  h.strategy = c.string("strategy", 32);
  bool known_strategy = true;  // a strategy's own name, as traces are written (not an alias)
  if (h.strategy != kExploringStrategy) try {
    known_strategy = rt::StrategyValue::format(rt::StrategyValue::parse("strategy", h.strategy)) == h.strategy;
  } catch (const std::invalid_argument&) {
    known_strategy = false;
  }
  if (!known_strategy) c.fail("corrupted: unknown strategy '" + h.strategy + "'");
  h.checks = c.string("checker options", 1 << 16);
  c.verify("header checksum");

  while (!c.at_end()) {
    Event e;
    e.offset = c.pos();
    const std::uint8_t tag = c.byte("record");
    if (tag >= 1 && tag <= 6) {
      e.type = Event::choice;
      e.kind = tag;
      e.value = c.varint("choice");
    } else if (tag >= kTagCall && tag < kTagCall + static_cast<std::uint8_t>(Call::count_)) {
      e.type = Event::call;
      e.rec.call = static_cast<Call>(tag - kTagCall);
      const std::uint64_t pid = c.varint("process");
      if (pid >= procs) c.fail("corrupted: process " + std::to_string(pid) + " of " + std::to_string(procs));
      e.rec.pid = static_cast<std::uint32_t>(pid);
      e.rec.target = c.svarint("target");
      e.rec.size = c.svarint("size");
      for (int i = 0; i < 4; ++i) e.rec.checksum |= static_cast<std::uint32_t>(c.byte("checksum")) << (8 * i);
    } else if (tag == kTagSuperstep) {
      e.type = Event::superstep;
      e.value = c.varint("superstep");
    } else if (tag == kTagWork) {
      WorkRecord w;
      const std::uint64_t pid = c.varint("process");
      if (pid >= procs) c.fail("corrupted: process " + std::to_string(pid) + " of " + std::to_string(procs));
      w.pid = static_cast<std::uint32_t>(pid);
      w.ns = c.varint("work");
      w.before = r.events_.size();
      r.work_.push_back(w);
      continue;
    } else if (tag == kTagEnd) {
      e.type = Event::end;
      c.verify("trace checksum");
      r.events_.push_back(e);
      if (!c.at_end()) c.fail("corrupted: data after the end record");
      r.complete_ = true;
      break;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "0x%02x", tag);
      c.fail(std::string("corrupted: unknown record type ") + buf);
    }
    r.events_.push_back(e);
  }
  return r;
}

std::string describe_call(const CallRecord& r) {
  std::ostringstream s;
  s << call_name(r.call) << " by process " << r.pid;
  if (r.target >= 0) s << " to process " << r.target;
  if (r.size != 0) s << ", size " << r.size;
  if (r.checksum) s << ", data checksum " << std::hex << r.checksum;
  return s.str();
}

}  // namespace bspcheck::trace
