#include "replay/trace_format.hpp"

#include "runtime/options/option_values.hpp"
#include "runtime/base/rng.hpp"
#include "runtime/base/runtime_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace bspcheck::trace {

const char* call_name(Call c) {
  static const char* names[] = {
      "bsp_begin",         "bsp_end",           "bsp_sync",       "bsp_abort",   "bsp_push_reg",    "bsp_pop_reg",
      "bsp_put",           "bsp_hpput",         "bsp_get",        "bsp_hpget",   "bsp_set_tagsize", "bsp_send",
      "bsp_qsize",         "bsp_get_tag",       "bsp_move",       "bsp_hpmove",  "bsp_time",        "cBSP_initialize",
      "cBSP_send",         "cBSP_nsync",        "cBSP_gsync",     "bspk_malloc", "bspk_lookup",     "bspk_free",
      "bspk_sync",         "bspk_expect",       "bspk_will_send", "bspk_send",   "bspk_recv",       "bspk_copy (store)",
      "bspk_copy (fetch)", "bspk_copy (local)", "bsp_direct_get"};
  static_assert(std::size(names) == static_cast<std::size_t>(Call::count_));
  auto i = static_cast<std::size_t>(c);
  return i < std::size(names) ? names[i] : "?";
}

// --- writing ------------------------------------------------------------------------------------

Writer::Writer(const std::string& path, const Header& h, bool digest_only)
    : sum_(h.version), digest_only_(digest_only) {
  if (h.version < kOldestFormatVersion || h.version > kFormatVersion)
    throw TraceError(path + ": cannot write trace format version " + std::to_string(h.version));
  f_ = rt::open_runtime_file(path.c_str(), "wb");
  if (!f_) throw TraceError(path + ": cannot write the trace: " + std::strerror(errno));
  // buf_ is the buffer: each block is one write, not stdio's 4 KiB and the rest as two.
  std::setvbuf(f_, nullptr, _IONBF, 0);
  path_ = path;
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
  put_u32(checksum_so_far());  // the header's: a damaged header is refused, not misread
  flush();
}

Writer::~Writer() {
  if (!f_) return;
  write_buffer();
  const int program_errno = errno;
  if (rt::close_runtime_file(f_) != 0) note_write_error();
  // A trace cut short by a write error would later be refused as damaged, or replay a part of
  // the run as if it were the whole: it is not left behind (a regular file only: never a device).
  // Looked at and removed where it was written: in the session's file system, not a run's view
  // of it (runtime/base/outside_files.hpp).
  if (write_errno_ != 0) {
    const int fd = rt::open_outside(path_.c_str(), O_PATH | O_CLOEXEC);
    struct stat st {};
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) rt::unlink_outside(path_.c_str());
    if (fd >= 0) close(fd);
  }
  errno = program_errno;
}

void Writer::note_write_error() {
  if (write_errno_ != 0) return;
  write_errno_ = errno ? errno : EIO;
  std::fprintf(stderr, "bsp-check: error: %s: cannot write the trace: %s; the trace is removed\n", path_.c_str(),
               std::strerror(write_errno_));
}

void Writer::put_byte(std::uint8_t b) {
  *room() = b;
  ++used_;
}

std::uint32_t Writer::checksum_so_far() {
  sum_.add(buf_ + summed_, used_ - summed_);
  summed_ = used_;
  return sum_.value();
}

void Writer::write_buffer() {
  checksum_so_far();
  const int program_errno = errno;  // a failed write's errno is the runtime's, not the program's
  if (used_ && !digest_only_ && write_errno_ == 0 && std::fwrite(buf_, 1, used_, f_) != used_) note_write_error();
  errno = program_errno;
  written_ += used_;
  used_ = summed_ = 0;
}

void Writer::put_u32(std::uint32_t v) {
  for (int i = 0; i < 4; ++i) put_byte(static_cast<std::uint8_t>(v >> (8 * i)));
}

void Writer::put_varint(std::uint64_t v) { used_ = static_cast<std::size_t>(varint(room(), v) - buf_); }

void Writer::superstep(std::uint64_t n) {
  put_byte(kTagSuperstep);
  put_varint(n);
}

void Writer::work(std::uint32_t pid, std::uint64_t ns) {
  put_byte(kTagWork);
  put_varint(pid);
  put_varint(ns);
}

void Writer::memory(std::uint32_t pid, std::uint64_t bytes) {
  put_byte(kTagMemory);
  put_varint(pid);
  put_varint(bytes);
}

void Writer::end() {
  put_byte(kTagEnd);
  end_checksum_ = checksum_so_far();
  put_u32(end_checksum_);  // of everything before: a complete trace is verified whole
  ended_ = true;
  flush();
}

void Writer::flush() {
  write_buffer();
  if (digest_only_) write_digest();
  const int program_errno = errno;
  if (write_errno_ == 0 && std::fflush(f_) != 0) note_write_error();
  errno = program_errno;
}

namespace {

// A digest is one line of a fixed length, so that each rewrite covers the one before whole.
constexpr char kDigestFormat[] = "bsp-check trace digest: %-7s %020llu bytes, %020llu calls, checksum %08x\n";
constexpr std::size_t kDigestLength = 106;

}  // namespace

void Writer::write_digest() {
  char line[kDigestLength + 1];
  // An ended trace's own checksum: the running one, over the checksum at its end too, would be
  // the same for every trace (a CRC's residue).
  const int n = std::snprintf(line, sizeof line, kDigestFormat, ended_ ? "ended" : "cut off",
                              static_cast<unsigned long long>(written_), static_cast<unsigned long long>(calls_),
                              static_cast<unsigned>(ended_ ? end_checksum_ : sum_.value()));
  const int program_errno = errno;
  if (n != static_cast<int>(kDigestLength) ||
      (write_errno_ == 0 && pwrite(fileno(f_), line, kDigestLength, 0) != static_cast<ssize_t>(kDigestLength)))
    note_write_error();
  errno = program_errno;
}

std::optional<Digest> read_digest(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return std::nullopt;
  char line[kDigestLength + 2] = {};
  const std::size_t n = std::fread(line, 1, sizeof line - 1, f);
  std::fclose(f);
  char ended[8] = {};
  unsigned long long bytes = 0, calls = 0;
  unsigned checksum = 0;
  if (n != kDigestLength || std::sscanf(line, "bsp-check trace digest: %7c %llu bytes, %llu calls, checksum %x", ended,
                                        &bytes, &calls, &checksum) != 4)
    return std::nullopt;
  Digest d;
  d.ended = std::strncmp(ended, "ended  ", 7) == 0;
  d.bytes = bytes;
  d.calls = calls;
  d.checksum = checksum;
  return d;
}

// --- reading ------------------------------------------------------------------------------------

namespace {

// Bytes of a trace, from memory or from a file read in blocks (a replay streams its trace with
// bounded memory), with the running checksum of every byte read.
class Cursor {
 public:
  Cursor(const std::uint8_t* d, std::size_t n, const std::string& origin) : origin_(origin) {
    b_.d = d;
    b_.n = n;
  }
  // From a file; `limit`: more bytes than this are refused (a pipe or a device is not a trace).
  Cursor(std::FILE* f, const std::string& origin, std::size_t limit)
      : f_(f), block_(1 << 16), limit_(limit), origin_(origin) {}
  bool at_end() {
    if (b_.pos < b_.n) return false;
    refill();
    return b_.pos >= b_.n;
  }
  TraceBlock& block() { return b_; }
  std::size_t pos() const { return consumed_ + b_.pos; }
  [[noreturn]] __attribute__((noinline, cold)) void fail(const std::string& what) const {
    throw TraceError(origin_ + ": " + what + " at byte " + std::to_string(pos()));
  }
  // The hot path of a replay (every record of the trace): a bounds check and a load, inline. The
  // checksum is taken later over whole runs of bytes (sum_up_to_pos).
  std::uint8_t byte(const char* what) {
    if (b_.pos >= b_.n) [[unlikely]]
      return byte_from_next_block(what);
    return b_.d[b_.pos++];
  }
  // The checksum of the trace's format version, chosen before any byte is summed (the version is
  // in the first block, and bytes are summed only when a block is left or a checksum verified).
  void use_checksum_of(std::uint16_t version) {
    if (consumed_ || summed_) fail("the format version is not where it belongs");
    sum_ = StreamChecksum(version);
  }
  // Reads a stored checksum and compares it with the one of the bytes before it.
  void verify(const char* what) {
    sum_up_to_pos();
    const std::uint32_t expected = sum_.value();
    std::uint32_t stored = 0;
    for (int i = 0; i < 4; ++i) stored |= static_cast<std::uint32_t>(byte(what)) << (8 * i);
    if (stored != expected) fail(std::string("corrupted: ") + what + " does not match");
  }
  std::uint64_t varint(const char* what) {
    std::uint64_t v = 0;
    if (!rt::leb128_decode([&] { return byte(what); }, v)) fail_overlong(what);
    return v;
  }
  std::int64_t svarint(const char* what) { return rt::unzigzag(varint(what)); }
  std::string string(const char* what, std::size_t limit) {
    std::uint64_t len = varint(what);
    if (len > limit) fail(std::string("corrupted: bad length of ") + what);
    std::string s;
    s.reserve(static_cast<std::size_t>(len));
    for (std::uint64_t i = 0; i < len; ++i) s += static_cast<char>(byte(what));
    return s;
  }

 private:
  [[noreturn]] __attribute__((noinline, cold)) void fail_overlong(const char* what) const {
    fail(std::string("corrupted: an overlong number (") + what + ")");
  }
  __attribute__((noinline)) std::uint8_t byte_from_next_block(const char* what) {
    refill();
    if (b_.pos >= b_.n) fail(std::string("truncated (") + what + ")");
    return b_.d[b_.pos++];
  }
  void sum_up_to_pos() {
    sum_.add(b_.d + summed_, b_.pos - summed_);
    summed_ = b_.pos;
  }
  void refill() {
    if (!f_) return;
    sum_up_to_pos();  // the block was read whole (b_.pos == b_.n)
    summed_ = 0;
    consumed_ += b_.n;
    if (limit_ && consumed_ > limit_)
      throw TraceError(origin_ + ": more than " + std::to_string(limit_ >> 20) +
                       " MiB from a file that is not a regular file: not a trace");
    b_.n = std::fread(block_.data(), 1, block_.size(), f_);
    b_.d = block_.data();
    b_.pos = 0;
  }
  TraceBlock b_;              // the block, how far it is read (the replay's inline paths read it too)
  std::size_t summed_ = 0;    // bytes of the block already in sum_
  std::size_t consumed_ = 0;  // bytes of earlier blocks
  std::FILE* f_ = nullptr;
  std::vector<std::uint8_t> block_;
  std::size_t limit_ = 0;  // 0: none
  std::string origin_;
  StreamChecksum sum_{kOldestFormatVersion};  // of every byte before b_.d + summed_
};

}  // namespace

struct EventStream::State {
  std::FILE* file = nullptr;
  Cursor cursor;
  Header header;
  std::uint32_t procs = 0;
  bool complete = false;
  std::vector<MemoryRecord> memory;
  State(const std::uint8_t* d, std::size_t n, const std::string& origin) : cursor(d, n, origin) {}
  State(std::FILE* f, const std::string& origin, std::size_t limit) : file(f), cursor(f, origin, limit) {}
  ~State() {
    if (file) rt::close_runtime_file(file);
  }
  void read_header(const std::string& origin);
};

void EventStream::State::read_header(const std::string& origin) {
  Cursor& c = cursor;
  for (std::size_t i = 0; i < sizeof kMagic; ++i)
    if (c.at_end() || c.byte("signature") != static_cast<std::uint8_t>(kMagic[i]))
      throw TraceError(origin + (read_digest(origin) ? ": holds only a trace's digest (trace_digest=1), not its events"
                                                     : ": not a bsp-check trace (no BSPTRACE signature)"));
  Header& h = header;
  h.version = c.byte("version");
  h.version |= static_cast<std::uint16_t>(c.byte("version") << 8);
  if (h.version < kOldestFormatVersion || h.version > kFormatVersion)
    throw TraceError(origin + ": trace format version " + std::to_string(h.version) +
                     ", this bsp-check reads versions " + std::to_string(kOldestFormatVersion) + " to " +
                     std::to_string(kFormatVersion));
  c.use_checksum_of(h.version);
  h.tool_version = c.string("tool version", 64);
  for (int i = 0; i < 8; ++i) h.program_digest |= static_cast<std::uint64_t>(c.byte("program digest")) << (8 * i);
  h.program = c.string("program", 4096);
  const std::uint64_t nargs = c.varint("argument count");
  if (nargs > 100000) c.fail("corrupted: bad argument count");
  for (std::uint64_t i = 0; i < nargs; ++i) h.args.push_back(c.string("argument", 1 << 20));
  const std::uint64_t p = c.varint("processors");
  if (p < 1 || p > 100000000) c.fail("corrupted: bad processor count");
  h.procs = procs = static_cast<std::uint32_t>(p);
  h.seed = c.varint("seed");
  h.strategy = c.string("strategy", 32);
  bool known_strategy = true;  // a strategy's own name, as traces are written (not an alias)
  if (h.strategy != kExploringStrategy && h.strategy != kMpiStrategy && h.strategy != kMpiRankStrategy) try {
      known_strategy = rt::StrategyValue::format(rt::StrategyValue::parse("strategy", h.strategy)) == h.strategy;
    } catch (const std::invalid_argument&) {
      known_strategy = false;
    }
  if (!known_strategy) c.fail("corrupted: unknown strategy '" + h.strategy + "'");
  h.checks = c.string("checker options", 1 << 16);
  c.verify("header checksum");
}

EventStream::EventStream(std::unique_ptr<State> s) : s_(std::move(s)), block_(&s_->cursor.block()), procs_(s_->procs) {}
EventStream::EventStream(EventStream&&) noexcept = default;
EventStream& EventStream::operator=(EventStream&&) noexcept = default;
EventStream::~EventStream() = default;

bool sealed_and_intact(const std::string& path, std::uint16_t version) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || size < sizeof trace::kMagic + 5) return false;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  trace::StreamChecksum sum(version);
  std::vector<std::uint8_t> block(1 << 20);
  std::uint8_t tag = 0;  // the last byte summed: the end record's tag
  bool read = true;
  for (std::uintmax_t left = size - 4; left > 0 && read;) {
    const auto n = static_cast<std::size_t>(std::min<std::uintmax_t>(left, block.size()));
    read = std::fread(block.data(), 1, n, f) == n;
    sum.add(block.data(), n);
    tag = block[n - 1];
    left -= n;
  }
  std::uint8_t stored[4] = {};
  read = read && std::fread(stored, 1, 4, f) == 4 && std::fgetc(f) == EOF;
  std::fclose(f);
  const std::uint32_t value = static_cast<std::uint32_t>(stored[0]) | static_cast<std::uint32_t>(stored[1]) << 8 |
                              static_cast<std::uint32_t>(stored[2]) << 16 | static_cast<std::uint32_t>(stored[3]) << 24;
  return read && tag == trace::kTagEnd && value == sum.value();
}

EventStream EventStream::open(const std::string& path) {
  // Bounded and fast on anything that is not a trace: a folder is refused by name, the signature
  // is read before the rest, and a file without a size (a pipe, /dev/zero) is read up to a limit.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw TraceError(path + ": is a directory, not a trace");
  std::FILE* f = rt::open_runtime_file(path.c_str(), "rb");
  if (!f) throw TraceError(path + ": cannot read the trace: " + std::strerror(errno));
  constexpr std::size_t kMaxUnsizedTrace = std::size_t{256} << 20;  // a piped trace larger than this is not one
  const bool sized = std::filesystem::is_regular_file(path, ec);
  auto state = std::make_unique<State>(f, path, sized ? 0 : kMaxUnsizedTrace);
  state->read_header(path);
  return EventStream(std::move(state));
}

EventStream EventStream::over(const std::uint8_t* data, std::size_t n, const std::string& origin) {
  auto state = std::make_unique<State>(data, n, origin);
  state->read_header(origin);
  return EventStream(std::move(state));
}

const Header& EventStream::header() const { return s_->header; }
bool EventStream::complete() const { return s_->complete; }

const std::vector<MemoryRecord>& EventStream::memory() const { return s_->memory; }

bool EventStream::next(Event& e, std::vector<WorkRecord>* work) {
  Cursor& c = s_->cursor;
  for (;;) {
    if (c.block().ended) {
      if (!c.at_end()) c.fail("corrupted: data after the end record");
      return false;
    }
    if (c.at_end()) return false;  // cut off: no end record
    e = Event{};
    e.offset = c.pos();
    const std::uint8_t tag = c.byte("record");
    if (rt::choice_kind_info(tag)) {
      e.type = Event::choice;
      e.kind = tag;
      e.value = c.varint("choice");
    } else if (tag >= kTagCall && tag < kTagCall + static_cast<std::uint8_t>(Call::count_)) {
      e.type = Event::call;
      e.rec.call = static_cast<Call>(tag - kTagCall);
      const std::uint64_t pid = c.varint("process");
      if (pid >= s_->procs) c.fail("corrupted: process " + std::to_string(pid) + " of " + std::to_string(s_->procs));
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
      if (pid >= s_->procs) c.fail("corrupted: process " + std::to_string(pid) + " of " + std::to_string(s_->procs));
      w.pid = static_cast<std::uint32_t>(pid);
      w.ns = c.varint("work");
      w.before = c.block().events;
      if (work) work->push_back(w);
      continue;  // not an event: replays and comparisons never see it
    } else if (tag == kTagMemory && s_->header.version >= kMemoryRecordVersion) {
      MemoryRecord m;
      const std::uint64_t pid = c.varint("process");
      if (pid >= s_->procs) c.fail("corrupted: process " + std::to_string(pid) + " of " + std::to_string(s_->procs));
      m.pid = static_cast<std::uint32_t>(pid);
      m.bytes = c.varint("memory");
      s_->memory.push_back(m);
      continue;  // a measurement, as a work record
    } else if (tag == kTagEnd) {
      e.type = Event::end;
      c.verify("trace checksum");
      c.block().ended = true;
      s_->complete = true;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "0x%02x", tag);
      c.fail(std::string("corrupted: unknown record type ") + buf);
    }
    ++c.block().events;
    return true;
  }
}

Reader Reader::read_all(EventStream s) {
  Reader r;
  r.header_ = s.header();
  for (Event e; s.next(e, &r.work_);) r.events_.push_back(e);
  r.memory_ = s.memory();
  r.complete_ = s.complete();
  return r;
}

Reader Reader::open(const std::string& path) { return read_all(EventStream::open(path)); }

Reader Reader::parse(const std::uint8_t* data, std::size_t n, const std::string& origin) {
  return read_all(EventStream::over(data, n, origin));
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
