// trace_format.hpp: the bsp-check trace, version 2 (docs/trace-format.md).
//
// A trace is a header followed by a stream of records in execution order: every scheduling
// choice the run made and every BSPlib call with its target, size and a checksum of the bytes it
// sends. It is written as the run goes (flushed at every barrier and when a run is stopped), so a
// run that crashes leaves a trace usable up to the crash. Integers are LEB128 varints, so a
// typical call costs about ten bytes.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <optional>
#include <string>
#include <vector>

#include "runtime/base/hash.hpp"
#include "runtime/base/varint.hpp"

namespace bspcheck::trace {

constexpr char kMagic[8] = {'B', 'S', 'P', 'T', 'R', 'A', 'C', 'E'};
// The version written. Version 1 differed only in its stream checksum (FNV-1a instead of
// CRC-32C), version 2 only in its calls' data checksum (FNV-1a instead of CRC-32C), version 3
// only in having no memory record (kTagMemory); all are still read and replayed, so that a trace
// recorded once replays forever.
constexpr std::uint16_t kFormatVersion = 4;
// The first version with memory records: an earlier reader would refuse their tag.
constexpr std::uint16_t kMemoryRecordVersion = 4;
constexpr std::uint16_t kOldestFormatVersion = 1;

// The call of a call record: BSPlib, then cBSP and BSPk (added later; new values go before
// count_ so that older traces read the same).
enum class Call : std::uint8_t {
  begin,
  end,
  sync,
  abort,
  push_reg,
  pop_reg,
  put,
  hpput,
  get,
  hpget,
  set_tagsize,
  send,
  qsize,
  get_tag,
  move,
  hpmove,
  time,
  cbsp_initialize,
  cbsp_send,
  cbsp_nsync,
  cbsp_gsync,
  bspk_malloc,
  bspk_lookup,
  bspk_free,
  bspk_sync,
  bspk_expect,
  bspk_will_send,
  bspk_send,
  bspk_recv,
  bspk_store,
  bspk_fetch,
  bspk_copy_local,
  direct_get,  // MulticoreBSP for C's bsp_direct_get (appended: older traces keep their numbers)
  count_
};
// Calls that end a process's superstep (its local superstep: cBSP and BSPk processes may be in
// different ones).
inline bool ends_superstep(Call c) {
  return c == Call::sync || c == Call::cbsp_nsync || c == Call::cbsp_gsync || c == Call::bspk_sync;
}
const char* call_name(Call c);

// Record tags: 1..5 are choices (the value of rt::ChoiceKind), 0x10 + Call a call, then markers.
enum : std::uint8_t { kTagCall = 0x10, kTagSuperstep = 0x70, kTagEnd = 0x71, kTagWork = 0x72, kTagMemory = 0x73 };

// The strategy a trace names when an exploring run (bsp-check explore, coverage search) recorded
// it: such a run is offered only the choices that can change what the program sees, so its
// replay must be offered the same ones.
constexpr const char* kExploringStrategy = "explore";
// The strategies of traces the MPI back end's records make (docs/mpi.md, "Record and replay"):
// one rank's own record (its seed field holds the rank), and the engine trace merged from all of
// them, whose replay takes the processes in pid order and only the recorded outcomes from the
// trace (replay_scheduler.hpp).
constexpr const char* kMpiRankStrategy = "mpi-rank";
constexpr const char* kMpiStrategy = "mpi";

struct Header {
  std::uint16_t version = kFormatVersion;
  std::string tool_version;
  std::uint64_t program_digest = 0;  // of the program file and its arguments
  std::string program;               // empty for in-process runs
  std::vector<std::string> args;
  std::uint32_t procs = 0;  // processors available
  std::uint64_t seed = 0;
  std::string strategy;  // kExploringStrategy: recorded by an exploring run
  std::string checks;    // checker options of the run: "disable=a,b:werror=1:check=0:suppressions=F"
};

struct CallRecord {
  Call call = Call::sync;
  std::uint32_t pid = 0;
  std::int64_t target = -1;    // pid addressed, or -1
  std::int64_t size = 0;       // bytes (or the tag size / reception size / maxprocs)
  std::uint32_t checksum = 0;  // of the bytes sent (put, hpput at the call, send)
  bool operator==(const CallRecord&) const = default;
};

// "bsp_put by process 1 to process 2, size 8, data checksum 3f2a": a call for messages.
std::string describe_call(const CallRecord& r);

struct Event {
  enum Type { choice, call, superstep, end } type = end;
  std::uint8_t kind = 0;    // choice: rt::ChoiceKind (1 and up); 0 for every other event
  std::uint64_t value = 0;  // choice: the value chosen; superstep: its number
  CallRecord rec;           // call
  std::size_t offset = 0;   // byte offset of the record in the file, for messages
};

// A measurement (--measure-work): the CPU time process pid spent running since its previous work
// record. Not an event: the reader keeps these apart, so replays and every comparison of traces
// ignore them, and the run's choices never depend on them.
struct WorkRecord {
  std::uint32_t pid = 0;
  std::uint64_t ns = 0;
  std::size_t before = 0;  // the number of events before it (its place in the stream)
};

// The most memory a process's data took in the recorded run (an MPI rank's record says it at
// its end: docs/mpi.md), so that a replay of many ranks in one process can say beforehand
// whether they fit. A measurement, not an event, as a work record is.
struct MemoryRecord {
  std::uint32_t pid = 0;
  std::uint64_t bytes = 0;
};

// Thrown for unreadable, truncated-header, corrupted, foreign or other-version traces: the
// message names what is wrong and where.
struct TraceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The checksum of a call's data (the bytes a put or send carries) in a trace of format `version`:
// 32 bits are enough to notice a different payload. FNV-1a in versions 1 and 2; from version 3,
// CRC-32C from 16 bytes on (eight bytes per instruction, in three lanes for long data: FNV-1a, a
// multiply per byte in one chain, took 2 ms for a 1 MiB put, several times the put itself) and
// FNV-1a below (an int or a double: a few inline multiplies cost less than the call into the
// CRC's SSE4.2 code; bench/bench_data_checksum.cpp). Inline: it is taken at every such call, of a
// replayed trace in that trace's version.
inline std::uint32_t checksum(const void* p, std::size_t n, std::uint16_t version = kFormatVersion) {
  constexpr std::size_t kCrcFrom = 16;
  if (version < 3 || n < kCrcFrom) return rt::fnv1a32(p, n);
  rt::Crc32c crc;
  crc.add(p, n);
  return crc.value();
}

// The checksum over a trace's own bytes (the header's, the end record's): FNV-1a (32 bits) in
// format version 1, CRC-32C from version 2, where the byte-serial FNV had been a tenth of the
// time of a recorded or replayed run. Fed whole runs of bytes, never a byte at a time.
class StreamChecksum {
 public:
  explicit StreamChecksum(std::uint16_t version = kFormatVersion) : crc_(version >= 2) {}
  void add(const std::uint8_t* p, std::size_t n) {
    if (crc_) crc32c_.add(p, n);
    else fnv_.add(p, n);
  }
  std::uint32_t value() const { return crc_ ? crc32c_.value() : fnv_.value(); }

 private:
  bool crc_;
  rt::Crc32c crc32c_;
  rt::Fnv1a32 fnv_;
};

// The encoding of a record, for the writer and for the replay's comparison of a call with the
// trace's bytes. The longest record: a tag, three varints of up to ten bytes and a checksum.
constexpr std::size_t kMaxRecord = 1 + 3 * 10 + 4;
using rt::zigzag;  // small negatives stay small (runtime/base/varint.hpp)
inline std::uint8_t* varint(std::uint8_t* p, std::uint64_t v) { return rt::leb128_encode(p, v); }
// The usual call record (a put, a get: pid, target and size of one byte each, then the data
// checksum) as one little-endian 64-bit word, built in a register: the writer stores it and the
// replay compares it with one access each (built in memory byte by byte and loaded whole, it
// stalled on store forwarding). False when a number needs more than one byte.
inline bool usual_call_word(const CallRecord& r, std::uint64_t& word) {
  static_assert(std::endian::native == std::endian::little);
  const std::uint64_t target = zigzag(r.target), size = zigzag(r.size);
  if ((r.pid | target | size) >= 0x80) return false;
  word = (kTagCall + static_cast<std::uint64_t>(r.call)) | std::uint64_t{r.pid} << 8 | target << 16 | size << 24 |
         std::uint64_t{r.checksum} << 32;
  return true;
}
inline std::uint8_t* encode_call(std::uint8_t* p, const CallRecord& r) {  // kMaxRecord bytes at most
  std::uint64_t word;
  if (usual_call_word(r, word)) {
    std::memcpy(p, &word, 8);
    return p + 8;
  }
  *p++ = static_cast<std::uint8_t>(kTagCall + static_cast<std::uint8_t>(r.call));
  p = varint(p, r.pid);
  p = varint(p, zigzag(r.target));
  p = varint(p, zigzag(r.size));
  for (int i = 0; i < 4; ++i) *p++ = static_cast<std::uint8_t>(r.checksum >> (8 * i));
  return p;
}

// What a trace written as a digest holds (Writer's digest_only): the recording's length, calls
// and checksum instead of its events. Two runs recorded the same events exactly when their
// digests are equal (the checksum's odds aside), which is all the determinism check needs of a
// run that passes (tools/across_runs/determinism_check.hpp): neither run writes its trace then.
struct Digest {
  bool ended = false;  // the recording ended (its end record); false: cut off at its last flush
  std::uint64_t bytes = 0, calls = 0;
  std::uint32_t checksum = 0;  // the end record's (of every byte before it), else of every byte so far
  bool operator==(const Digest&) const = default;
};
// The digest a file holds; nothing when it holds none (a trace, an empty file, no file).
std::optional<Digest> read_digest(const std::string& path);

class Writer {
 public:
  // digest_only: the file holds only the recording's Digest, rewritten in place at each flush,
  // not its events. Throws TraceError if it cannot write.
  Writer(const std::string& path, const Header& h, bool digest_only = false);
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // choice and call are the hot path of recording (a choice and a call per BSPlib call): inline,
  // encoded straight into the buffer, and the trace's checksum taken later over whole blocks.
  void choice(std::uint8_t kind, std::uint64_t value) {
    std::uint8_t* p = room();
    *p++ = kind;
    p = varint(p, value);
    used_ = static_cast<std::size_t>(p - buf_);
  }
  // The draws of a shuffle (rt::Scheduler::choose_shuffle): n choices of one kind, each below
  // 2^32, with one check for room per block of them rather than one per choice.
  void choices(std::uint8_t kind, const std::uint32_t* values, std::size_t n) {
    constexpr std::size_t kPerRoom = 256, kMaxChoice = 6;  // a choice: its kind, a varint of <= 5 bytes
    while (n) {
      std::uint8_t* p = room(kPerRoom * kMaxChoice);
      const std::size_t k = n < kPerRoom ? n : kPerRoom;
      for (std::size_t i = 0; i < k; ++i) {
        *p++ = kind;
        p = varint(p, values[i]);
      }
      used_ = static_cast<std::size_t>(p - buf_);
      values += k;
      n -= k;
    }
  }
  void call(const CallRecord& r) {
    ++calls_;
    used_ = static_cast<std::size_t>(encode_call(room(), r) - buf_);
  }
  void superstep(std::uint64_t n);
  void work(std::uint32_t pid, std::uint64_t ns);
  void memory(std::uint32_t pid, std::uint64_t bytes);
  void end();
  void flush();
  std::uint64_t bytes() const { return written_ + used_; }
  std::uint64_t calls() const { return calls_; }

 private:
  std::uint8_t* room(std::size_t bytes = kMaxRecord) {  // space at the end of the buffer (one record's)
    if (used_ + bytes > sizeof buf_) write_buffer();
    return buf_ + used_;
  }
  void put_byte(std::uint8_t b);
  void put_varint(std::uint64_t v);
  void put_u32(std::uint32_t v);
  // The checksum of every byte written so far (it brings sum_ up to the end of the buffer).
  std::uint32_t checksum_so_far();
  void write_buffer();
  void note_write_error();  // the first failed write (a full disk): said once, the file removed at the end
  void write_digest();      // digest_only: the Digest so far, over the file's one line
  std::FILE* f_;
  std::string path_;
  int write_errno_ = 0;  // of the first failed write; 0 while every write succeeded
  std::uint8_t buf_[1 << 16];
  std::size_t used_ = 0;
  std::size_t summed_ = 0;     // bytes of buf_ already in sum_
  std::uint64_t written_ = 0;  // bytes handed to the file before buf_
  std::uint64_t calls_ = 0;
  StreamChecksum sum_;  // of every byte before buf_ + summed_
  bool digest_only_ = false;
  bool ended_ = false;              // end() was called
  std::uint32_t end_checksum_ = 0;  // the end record's: of every byte before it
};

// The block of a trace being read, and how far: what the inline fast paths of a replay read
// (EventStream::next_small_choice, next_call_if), without a call into the reader per record.
struct TraceBlock {
  const std::uint8_t* d = nullptr;
  std::size_t n = 0;       // bytes in the block
  std::size_t pos = 0;     // the next unread byte
  std::size_t events = 0;  // events read so far, by any path (a work record's `before`)
  bool ended = false;      // the end record was read: nothing more is an event
};

// Does the trace end with its end record, whose checksum (of every byte before it, in the
// trace's version) matches? Then every byte is as the run wrote it: read in blocks and summed,
// a few milliseconds for a million calls, where decoding every record (EventStream::next) takes
// a tenth of a replay. False for a trace cut short (no end record) as for a changed one: only
// decoding it names what is wrong. The driver's (it reads with stdio, not through the runtime's
// view of a run's files).
bool sealed_and_intact(const std::string& path, std::uint16_t version);

// Reads a trace one event at a time, with bounded memory whatever its length: the header when
// opened, then each record as it is asked for (a replay: replay_scheduler.hpp). Corruption found
// on the way is a TraceError then.
class EventStream {
 public:
  static EventStream open(const std::string& path);  // reads the header; throws TraceError
  static EventStream over(const std::uint8_t* data, std::size_t n, const std::string& origin);
  EventStream(EventStream&&) noexcept;
  EventStream& operator=(EventStream&&) noexcept;
  ~EventStream();

  const Header& header() const;
  // The next event; false past the last one. Work records are not events: they go to `work`
  // when given, else they are skipped.
  bool next(Event& e, std::vector<WorkRecord>* work = nullptr);
  // The next event when it is a choice of this kind with a value below 2^14 (a varint of one or
  // two bytes: nearly all of a replay's choices), read inline without building an Event; false,
  // with nothing read, otherwise (then next() reads whatever it is, and names what is wrong).
  bool next_small_choice(std::uint8_t kind, std::uint64_t& value) {
    TraceBlock& b = *block_;
    if (b.ended) return false;
    std::uint32_t small;
    const std::size_t length = small_choice_at(b.d, b.pos, b.n, kind, small);
    if (length == 0) return false;
    value = small;
    b.pos += length;
    ++b.events;
    return true;
  }
  // The draws of a shuffle of n elements (the k-th below n - k, as Scheduler::choose_shuffle), as
  // many as are next in the trace as small choices of this kind, into out; returns how many. One
  // loop with the block's position in a register (next_small_choice per draw stored it back
  // every time). Stops before any other record, and before a value out of its range (which the
  // caller's slower path reports).
  std::uint32_t next_small_shuffle(std::uint8_t kind, std::uint32_t n, std::uint32_t* out) {
    TraceBlock& b = *block_;
    if (b.ended) return 0;
    const std::uint8_t* const d = b.d;
    const std::size_t end = b.n;
    std::size_t pos = b.pos;
    std::uint32_t k = 0;
    for (std::uint32_t below = n; below > 1; --below, ++k) {
      std::uint32_t value;
      const std::size_t length = small_choice_at(d, pos, end, kind, value);
      if (length == 0 || value >= below) break;
      out[k] = value;
      pos += length;
    }
    b.pos = pos;
    b.events += k;
    return k;
  }
  // The next event when it is this call (its bytes are encode_call's of it), read by comparing
  // bytes inline; false, with nothing read, otherwise.
  bool next_call_if(const CallRecord& r) {
    TraceBlock& b = *block_;
    if (b.ended || r.pid >= procs_) return false;  // (next() names a bad pid)
    std::uint64_t want;
    if (b.n - b.pos >= 8 && usual_call_word(r, want)) {  // the usual record: one load
      std::uint64_t have;
      std::memcpy(&have, b.d + b.pos, 8);
      if (have != want) return false;
      b.pos += 8;
    } else {
      std::uint8_t bytes[kMaxRecord];
      const std::size_t n = static_cast<std::size_t>(encode_call(bytes, r) - bytes);
      if (b.n - b.pos < n) return false;
      for (std::size_t i = 0; i < n; ++i)  // byte by byte: the record may end a short block
        if (b.d[b.pos + i] != bytes[i]) return false;
      b.pos += n;
    }
    ++b.events;
    return true;
  }
  bool complete() const;  // the end record was read (its checksum verified)
  // The memory records read so far (a rank's record has one, at its end).
  const std::vector<MemoryRecord>& memory() const;

 private:
  // The length of the small choice of this kind at d[pos] (a kind byte, then a varint of one or
  // two bytes: a value below 2^14), with d[end] the first byte past the block; its value in
  // `value`; 0 when the bytes are anything else. The one decoder of both fast paths above.
  static std::size_t small_choice_at(const std::uint8_t* d, std::size_t pos, std::size_t end, std::uint8_t kind,
                                     std::uint32_t& value) {
    if (end - pos < 2 || d[pos] != kind) return 0;
    value = d[pos + 1];
    if (!(value & 0x80u)) return 2;
    if (end - pos < 3 || (d[pos + 2] & 0x80u)) return 0;
    value = (value & 0x7fu) | static_cast<std::uint32_t>(d[pos + 2]) << 7;
    return 3;
  }

  struct State;
  explicit EventStream(std::unique_ptr<State> s);
  std::unique_ptr<State> s_;
  TraceBlock* block_;        // inside *s_ (which does not move when the stream does)
  std::uint32_t procs_ = 0;  // the header's
};

// Reads a whole trace into memory (show, shrink, comparisons).
class Reader {
 public:
  static Reader open(const std::string& path);                                              // throws TraceError
  static Reader parse(const std::uint8_t* data, std::size_t n, const std::string& origin);  // throws TraceError

  const Header& header() const { return header_; }
  const std::vector<Event>& events() const { return events_; }
  const std::vector<WorkRecord>& work() const { return work_; }  // in stream order
  const std::vector<MemoryRecord>& memory() const { return memory_; }
  bool complete() const { return complete_; }  // ended with an end record (not cut off)

 private:
  static Reader read_all(EventStream s);
  Header header_;
  std::vector<Event> events_;
  std::vector<WorkRecord> work_;
  std::vector<MemoryRecord> memory_;
  bool complete_ = false;
};

}  // namespace bspcheck::trace
