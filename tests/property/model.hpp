// model.hpp: generated BSPlib programs as data, and a small sequential reference model of
// BSPlib written from the BSPlib paper (Hill, McColl et al., sections 3 and 4).
//
// Nothing here includes or calls the runtime: the model is an independent second opinion
// that the property tests (bsp_model_property_test.cpp) hold the runtime against.
//
// Memory layout of every process in a generated program: kMemBytes bytes. The first kAreas
// blocks of kAreaBytes bytes are the areas that may be registered (the address of block a is
// the registration ident "A<a>"); registrations give them sizes 0..kAreaBytes that differ per
// process. Any byte of the memory may be a put source, a get destination, a send payload or
// tag, or the target of a local write. Messages are received into separate buffers, so that
// the final memory does not depend on the (seeded, unspecified) queue order.
#pragma once

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace bspmodel {

constexpr int kMaxProcs = 8;
constexpr int kAreas = 3;
constexpr int kAreaBytes = 16;
constexpr int kMemBytes = 64;       // kAreas * kAreaBytes registrable bytes + 16 local bytes
constexpr int kMaxTag = 8;          // largest tag size ever set
constexpr int kMaxPayload = 8;      // largest payload ever sent
constexpr int kMaxReception = 12;   // largest reception_nbytes of a bsp_move
constexpr std::uint8_t kSentinel = 0xA5;  // fills reception buffers before bsp_get_tag / bsp_move

using Bytes = std::vector<std::uint8_t>;

enum class OpKind : std::uint8_t {
  LocalWrite,  // memcpy(mem + addr, data)
  Put,         // bsp_put(pid, mem + addr, A<area>, offset, len)
  Get,         // bsp_get(pid, A<area>, offset, mem + addr, len)
  HpPut,       // bsp_hpput(...), same arguments as Put
  HpGet,       // bsp_hpget(...), same arguments as Get
  Send,        // bsp_send(pid, mem + tagAddr, mem + addr, len) (NULL if nullTag / nullPayload)
  Qsize,       // bsp_qsize(&n, &accum)
  GetTag,      // bsp_get_tag(&status, tagbuf)
  Recv,        // bsp_get_tag(&status, tagbuf); if status >= 0: bsp_move(buf, len)
  HpMove,      // bsp_hpmove(&tag, &payload)
  PushReg,     // bsp_push_reg(area < 0 ? NULL : A<area>, len)
  PopReg,      // bsp_pop_reg(area < 0 ? NULL : A<area>)
  SetTagsize,  // int t = len; bsp_set_tagsize(&t)
};

struct Op {
  OpKind kind = OpKind::Qsize;
  int pid = 0;       // Put/Get/HpPut/HpGet/Send: the remote process
  int area = -1;     // the caller's registered area naming the slot; PushReg: -1 = NULL
  int offset = 0;    // offset inside the remote registered area
  int addr = 0;      // caller-local address (see OpKind)
  int len = 0;       // nbytes, payload bytes, reception bytes, registration size or tag size
  int tagAddr = 0;   // Send: caller-local address of the tag
  bool nullTag = false;      // Send: pass NULL as the tag (only when the tag size is 0)
  bool nullPayload = false;  // Send: pass NULL as the payload (only when len is 0)
  Bytes data;        // LocalWrite
};

struct Superstep {
  std::vector<std::vector<Op>> ops;  // per process, in program order
  bool last = false;                 // ends with bsp_end instead of bsp_sync
  int tagBytesIn = 0;                // tag size of the messages readable in this superstep
};

struct Program {
  int p = 1;
  std::uint64_t seed = 1;
  bool roundRobin = false;  // bspcheck::Strategy::round_robin instead of random
  std::vector<Superstep> steps;
};

// Initial contents of process pid's memory (no zero bytes, different on every process).
Bytes initialMemory(int pid);

// ---- Raw programs: what rapidcheck generates and shrinks. normalize() turns one into a
// correct BSPlib program deterministically (dropping what cannot be made valid), so that every
// shrink of a raw program is again a correct program.
struct RawOp {
  std::uint8_t kind = 0;  // %12, see normalize()
  std::array<std::uint8_t, 5> x{};
  Bytes data;
};
struct RawColl {  // a collective registration / tag size call, issued by every process
  std::uint8_t kind = 0;  // %7: 0-3 push_reg, 4-5 pop_reg, 6 set_tagsize
  std::uint8_t x = 0;
  std::array<std::uint8_t, kMaxProcs> area{}, size{}, pos{};
};
struct RawStep {
  std::vector<RawColl> coll;
  std::array<std::vector<RawOp>, kMaxProcs> ops;
};
struct RawProgram {
  int p = 1;
  std::uint64_t seed = 0;
  bool roundRobin = false;
  std::vector<RawStep> steps;  // the last one only receives and writes locally
  bool allowMultipleSetTagsize = true;  // more than one bsp_set_tagsize per superstep
};

Program normalize(const RawProgram& raw);
std::string show(const Program& prog);
std::ostream& operator<<(std::ostream& os, const RawProgram& raw);  // shows normalize(raw)

// ---- The reference model.
struct Message {
  Bytes tag, payload;
  auto operator<=>(const Message&) const = default;
};

struct ModelResult {
  std::string error;  // non-empty: the program is not a correct BSPlib program (generator bug)
  std::vector<Bytes> mem;                                  // final memory per process
  std::vector<std::vector<std::vector<Message>>> recv;    // [step][pid]: sorted multiset
  std::vector<int> tagBytesIn;                             // [step]
  std::vector<std::vector<std::vector<int>>> setTagsize;  // [step][pid]: values returned
};

ModelResult simulate(const Program& prog);

// ---- What the runtime did, recorded by the interpreter of a Program.
struct RecvEvent {
  OpKind kind = OpKind::Qsize;
  int a = 0, b = 0;  // Qsize: n, accum; GetTag/Recv: status; HpMove: return value
  Bytes tag;         // GetTag/Recv: the whole tag buffer (kMaxTag+4 bytes); HpMove: tagBytesIn
  Bytes buf;         // Recv: the whole reception buffer (len+4 bytes); HpMove: the payload
  int reception = 0; // Recv: reception_nbytes
};

struct Observed {
  std::vector<Bytes> mem;
  std::vector<std::vector<std::vector<RecvEvent>>> events;  // [step][pid]
  std::vector<std::vector<std::vector<int>>> setTagsize;   // [step][pid]
};

// Empty when the observation agrees with the model, else a description of the disagreement.
std::string compare(const Program& prog, const ModelResult& model, const Observed& obs);

}  // namespace bspmodel
