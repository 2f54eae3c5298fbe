// model.cpp: normalisation of raw generated programs, and the reference model. See model.hpp.
#include "model.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <sstream>

namespace bspmodel {

Bytes initialMemory(int pid) {
  Bytes m(kMemBytes);
  for (int i = 0; i < kMemBytes; ++i) m[i] = static_cast<std::uint8_t>(1 + (pid * 67 + i * 13) % 251);
  return m;
}

namespace {

// ------------------------------------------------------------------------------------------
// Normalisation
// ------------------------------------------------------------------------------------------

struct NSlot {
  std::array<int, kMaxProcs> area{};  // -1 = NULL
  std::array<int, kMaxProcs> size{};
};

// Per-byte marks of one superstep, used to keep generated programs free of races.
enum : std::uint8_t {
  kRead = 1,      // read by a put source, send payload/tag or get source
  kWritten = 2,   // destination of a put/get/hpput/hpget
  kLocalW = 4,    // written by local computation
  kHpSrc = 8,     // source of an hpput/hpget: nothing may write it in this superstep
  kHpDst = 16,    // destination of an hpput/hpget: nothing else may read or write it
};
using Marks = std::array<std::array<std::uint8_t, kMemBytes>, kMaxProcs>;

bool anyMark(const Marks& m, int pid, int addr, int len, std::uint8_t mask) {
  for (int i = addr; i < addr + len; ++i)
    if (m[pid][i] & mask) return true;
  return false;
}
void setMark(Marks& m, int pid, int addr, int len, std::uint8_t flag) {
  for (int i = addr; i < addr + len; ++i) m[pid][i] |= flag;
}
// Try to add an access; false (marks unchanged) if it would race.
bool addRead(Marks& m, int pid, int addr, int len) {
  if (anyMark(m, pid, addr, len, kHpDst)) return false;
  setMark(m, pid, addr, len, kRead);
  return true;
}
bool addWrite(Marks& m, int pid, int addr, int len) {
  if (anyMark(m, pid, addr, len, kWritten | kHpSrc | kHpDst)) return false;
  setMark(m, pid, addr, len, kWritten);
  return true;
}
bool addLocalWrite(Marks& m, int pid, int addr, int len) {
  if (anyMark(m, pid, addr, len, kHpSrc | kHpDst)) return false;
  setMark(m, pid, addr, len, kLocalW);
  return true;
}
bool addHpSrc(Marks& m, int pid, int addr, int len) {
  if (anyMark(m, pid, addr, len, kWritten | kLocalW | kHpDst)) return false;
  setMark(m, pid, addr, len, kHpSrc | kRead);
  return true;
}
bool addHpDst(Marks& m, int pid, int addr, int len) {
  if (anyMark(m, pid, addr, len, kRead | kWritten | kLocalW | kHpSrc | kHpDst)) return false;
  setMark(m, pid, addr, len, kHpDst | kWritten);
  return true;
}

// 0 push_reg, 1 pop_reg, 2 set_tagsize.
int collKind(const RawColl& rc) {
  const int k = rc.kind % 7;
  return k < 4 ? 0 : k < 6 ? 1 : 2;
}

// Index of the most recent active slot whose entry for pid is area, or -1.
int resolve(const std::vector<NSlot>& active, int pid, int area) {
  for (int k = static_cast<int>(active.size()) - 1; k >= 0; --k)
    if (active[k].area[pid] == area) return k;
  return -1;
}

}  // namespace

Program normalize(const RawProgram& raw) {
  Program prog;
  const int p = std::clamp(raw.p, 1, kMaxProcs);
  prog.p = p;
  prog.seed = raw.seed;
  prog.roundRobin = raw.roundRobin;
  std::vector<NSlot> active;  // oldest first
  int T = 0;                  // tag size valid in the current superstep
  int Tin = 0;                // tag size of the messages readable in the current superstep
  std::array<int, kMaxProcs> incoming{};

  const int nsteps = static_cast<int>(raw.steps.size());
  for (int s = 0; s < nsteps; ++s) {
    const RawStep& rs = raw.steps[s];
    const bool last = s + 1 == nsteps;
    Superstep step;
    step.last = last;
    step.tagBytesIn = Tin;
    step.ops.resize(p);
    Marks marks{};
    std::array<int, kMaxProcs> incomingNext{};
    std::array<int, kMaxProcs> consumed{};

    // Collectives: the same sequence on every process.
    std::vector<std::array<Op, kMaxProcs>> coll;
    std::vector<const RawColl*> collRaw;
    std::vector<int> popped;  // slot indices popped in this superstep
    int newT = -1;
    if (!last) {
      // Pops first, so that pushes can avoid the idents being popped.
      for (const RawColl& rc : rs.coll) {
        if (collKind(rc) != 1) continue;
        std::vector<int> cands;
        for (int k = 0; k < static_cast<int>(active.size()); ++k) {
          if (std::find(popped.begin(), popped.end(), k) != popped.end()) continue;
          // Every process names slot k by its own entry: the most recent slot holding that
          // address (for a NULL entry: the most recent slot in which it registered NULL, which
          // is unambiguous whether or not NULL pops are resolved like other addresses). At least
          // one entry must be a real address.
          bool ok = false;
          for (int l = 0; l < p; ++l) ok = ok || active[k].area[l] >= 0;
          for (int l = 0; l < p && ok; ++l) ok = resolve(active, l, active[k].area[l]) == k;
          if (ok) cands.push_back(k);
        }
        if (cands.empty()) continue;
        const int k = cands[rc.x % cands.size()];
        popped.push_back(k);
        std::array<Op, kMaxProcs> ops{};
        for (int l = 0; l < p; ++l) {
          ops[l].kind = OpKind::PopReg;
          ops[l].area = active[k].area[l];
        }
        coll.push_back(ops);
        collRaw.push_back(&rc);
      }
      for (const RawColl& rc : rs.coll) {
        const int kind = collKind(rc);
        if (kind == 1) continue;
        std::array<Op, kMaxProcs> ops{};
        if (kind == 0) {
          for (int l = 0; l < p; ++l) {
            const int v = rc.area[l] % 10;
            int a = v == 9 ? -1 : v % kAreas;  // NULL one time in ten
            // Do not push an ident that is popped in the same superstep.
            for (int k : popped)
              if (a >= 0 && active[k].area[l] == a) a = -1;
            ops[l].kind = OpKind::PushReg;
            ops[l].area = a;
            ops[l].len = rc.size[l] % (kAreaBytes + 1);
          }
        } else {
          if (newT >= 0 && !raw.allowMultipleSetTagsize) continue;
          newT = rc.x % (kMaxTag + 1);
          for (int l = 0; l < p; ++l) {
            ops[l].kind = OpKind::SetTagsize;
            ops[l].len = newT;
          }
        }
        coll.push_back(ops);
        collRaw.push_back(&rc);
      }
    }

    for (int me = 0; me < p; ++me) {
      std::vector<Op> local;
      for (const RawOp& ro : rs.ops[me]) {
        const auto& x = ro.x;
        int kind = ro.kind % 12;
        if (last) {
          // Only local writes and receiving in the last superstep.
          static constexpr int lastKinds[] = {0, 6, 7, 8, 9};
          kind = lastKinds[ro.kind % 5];
        }
        Op op;
        switch (kind) {
          case 0: {  // local write
            op.kind = OpKind::LocalWrite;
            op.addr = x[0] % kMemBytes;
            op.data = ro.data;
            if (op.data.size() > static_cast<std::size_t>(kMemBytes - op.addr))
              op.data.resize(kMemBytes - op.addr);
            if (op.data.empty()) continue;
            if (!addLocalWrite(marks, me, op.addr, static_cast<int>(op.data.size()))) continue;
            break;
          }
          case 1:
          case 2:
          case 3:
          case 4: {  // put, get, hpput, hpget
            op.kind = kind == 1 ? OpKind::Put
                    : kind == 2 ? OpKind::Get
                    : kind == 3 ? OpKind::HpPut
                                : OpKind::HpGet;
            const int t = x[0] % p;
            std::vector<int> cands;  // my areas naming a slot where t registered something
            for (int a = 0; a < kAreas; ++a) {
              const int k = resolve(active, me, a);
              if (k >= 0 && active[k].area[t] >= 0) cands.push_back(a);
            }
            if (cands.empty()) continue;
            const int a = cands[x[1] % cands.size()];
            const NSlot& slot = active[resolve(active, me, a)];
            const int tsize = slot.size[t];
            const int remote = slot.area[t] * kAreaBytes;
            op.pid = t;
            op.area = a;
            op.len = x[2] % (tsize + 1);
            op.offset = x[3] % (tsize - op.len + 1);
            op.addr = x[4] % (kMemBytes - op.len + 1);
            Marks trial = marks;
            bool ok = true;
            switch (op.kind) {
              case OpKind::Put:
                ok = addRead(trial, me, op.addr, op.len) &&
                     addWrite(trial, t, remote + op.offset, op.len);
                break;
              case OpKind::Get:
                ok = addRead(trial, t, remote + op.offset, op.len) &&
                     addWrite(trial, me, op.addr, op.len);
                break;
              case OpKind::HpPut:
                ok = addHpSrc(trial, me, op.addr, op.len) &&
                     addHpDst(trial, t, remote + op.offset, op.len);
                break;
              default:
                ok = addHpSrc(trial, t, remote + op.offset, op.len) &&
                     addHpDst(trial, me, op.addr, op.len);
                break;
            }
            if (!ok) continue;
            marks = trial;
            break;
          }
          case 5:
          case 10: {  // send
            op.kind = OpKind::Send;
            op.pid = x[0] % p;
            op.len = x[1] % (kMaxPayload + 1);
            op.addr = x[2] % (kMemBytes - op.len + 1);
            op.tagAddr = x[3] % (kMemBytes - T + 1);
            op.nullTag = (x[4] & 1) != 0 && T == 0;
            op.nullPayload = (x[4] & 2) != 0 && op.len == 0;
            Marks trial = marks;
            if (!addRead(trial, me, op.addr, op.len) || !addRead(trial, me, op.tagAddr, T)) continue;
            marks = trial;
            ++incomingNext[op.pid];
            break;
          }
          case 11:  // repeat the previous put or get verbatim: overlapping writes of identical data
            if (local.empty() || local.back().len == 0 ||
                (local.back().kind != OpKind::Put && local.back().kind != OpKind::Get))
              continue;
            op = local.back();
            break;
          case 6:
            op.kind = OpKind::Qsize;
            break;
          case 7:
            op.kind = OpKind::GetTag;
            break;
          case 8:
            if (consumed[me] >= incoming[me]) continue;  // bsp_move needs a message
            ++consumed[me];
            op.kind = OpKind::Recv;
            op.len = x[0] % (kMaxReception + 1);
            break;
          default:  // 9
            op.kind = OpKind::HpMove;  // returns -1 on an empty queue, which is fine
            if (consumed[me] < incoming[me]) ++consumed[me];
            break;
        }
        local.push_back(std::move(op));
      }

      // Interleave the collectives (in their common order) with the local operations.
      const int n = static_cast<int>(local.size());
      std::vector<int> at(coll.size());
      for (std::size_t j = 0; j < coll.size(); ++j) at[j] = collRaw[j]->pos[me] % (n + 1);
      std::sort(at.begin(), at.end());
      std::vector<Op>& out = step.ops[me];
      Op q;
      q.kind = OpKind::Qsize;
      out.push_back(q);  // every superstep starts and ends with a bsp_qsize
      std::size_t j = 0;
      for (int i = 0; i <= n; ++i) {
        while (j < coll.size() && at[j] == i) out.push_back(coll[j++][me]);
        if (i < n) out.push_back(local[i]);
      }
      out.push_back(q);
    }
    prog.steps.push_back(std::move(step));

    // The sync.
    std::vector<NSlot> next;
    for (int k = 0; k < static_cast<int>(active.size()); ++k)
      if (std::find(popped.begin(), popped.end(), k) == popped.end()) next.push_back(active[k]);
    for (std::size_t j = 0; j < coll.size(); ++j) {
      if (coll[j][0].kind != OpKind::PushReg) continue;
      NSlot slot;
      for (int l = 0; l < p; ++l) {
        slot.area[l] = coll[j][l].area;
        slot.size[l] = coll[j][l].len;
      }
      next.push_back(slot);
    }
    active = std::move(next);
    Tin = T;
    if (newT >= 0) T = newT;
    incoming = incomingNext;
  }
  if (prog.steps.empty()) {
    Superstep step;
    step.last = true;
    step.ops.resize(p);
    prog.steps.push_back(step);
  }
  return prog;
}

static std::string hex(const Bytes& b) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (auto c : b) {
    s += digits[c >> 4];
    s += digits[c & 15];
  }
  return s.empty() ? "\"\"" : s;
}

std::string show(const Program& prog) {
  std::ostringstream os;
  os << "Program p=" << prog.p << " seed=" << prog.seed << (prog.roundRobin ? " round_robin" : "")
     << " (memory of P<i>: 64 bytes m[], area A<a> = &m[16*a])\n";
  for (std::size_t s = 0; s < prog.steps.size(); ++s) {
    const Superstep& st = prog.steps[s];
    os << "superstep " << s << " (incoming tag size " << st.tagBytesIn << ")"
       << (st.last ? ", then bsp_end" : ", then bsp_sync") << "\n";
    for (int pid = 0; pid < prog.p; ++pid) {
      os << "  P" << pid << ":";
      for (const Op& op : st.ops[pid]) {
        os << " ";
        switch (op.kind) {
          case OpKind::LocalWrite: os << "m[" << op.addr << "..]=" << hex(op.data); break;
          case OpKind::Put:
          case OpKind::HpPut:
            os << (op.kind == OpKind::Put ? "put(" : "hpput(") << op.pid << ",m+" << op.addr << ",A"
               << op.area << "," << op.offset << "," << op.len << ")";
            break;
          case OpKind::Get:
          case OpKind::HpGet:
            os << (op.kind == OpKind::Get ? "get(" : "hpget(") << op.pid << ",A" << op.area << ","
               << op.offset << ",m+" << op.addr << "," << op.len << ")";
            break;
          case OpKind::Send:
            os << "send(" << op.pid << ",tag=m+" << op.tagAddr << ",m+" << op.addr << "," << op.len
               << (op.nullTag ? ",tag=NULL" : "") << (op.nullPayload ? ",payload=NULL" : "") << ")";
            break;
          case OpKind::Qsize: os << "qsize"; break;
          case OpKind::GetTag: os << "get_tag"; break;
          case OpKind::Recv: os << "get_tag+move(" << op.len << ")"; break;
          case OpKind::HpMove: os << "hpmove"; break;
          case OpKind::PushReg:
            os << "push_reg(" << (op.area < 0 ? std::string("NULL") : "A" + std::to_string(op.area))
               << "," << op.len << ")";
            break;
          case OpKind::PopReg:
            os << "pop_reg(" << (op.area < 0 ? std::string("NULL") : "A" + std::to_string(op.area)) << ")";
            break;
          case OpKind::SetTagsize: os << "set_tagsize(" << op.len << ")"; break;
        }
        os << ";";
      }
      os << "\n";
    }
  }
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const RawProgram& raw) {
  return os << "\n" << show(normalize(raw));
}

// ------------------------------------------------------------------------------------------
// The reference model
// ------------------------------------------------------------------------------------------

ModelResult simulate(const Program& prog) {
  ModelResult r;
  const int p = prog.p;
  for (int i = 0; i < p; ++i) r.mem.push_back(initialMemory(i));
  auto fail = [&](std::size_t s, int pid, const std::string& what) {
    if (r.error.empty())
      r.error = "superstep " + std::to_string(s) + ", P" + std::to_string(pid) + ": " + what;
  };

  // The registration sequence: slot = one <ident, size> per process, ident -1 = NULL.
  struct Entry {
    int area = -1;
    int size = 0;
  };
  using Slot = std::vector<Entry>;
  std::vector<Slot> slots;  // oldest first
  int T = 0;                // tag size valid in the current superstep
  int Tin = 0;
  std::vector<std::vector<Message>> queue(p);

  auto mostRecent = [&](int pid, int area) -> int {
    for (int k = static_cast<int>(slots.size()) - 1; k >= 0; --k)
      if (slots[k][pid].area == area) return k;
    return -1;
  };

  for (std::size_t s = 0; s < prog.steps.size(); ++s) {
    const Superstep& st = prog.steps[s];
    r.tagBytesIn.push_back(Tin);
    for (auto& q : queue) std::sort(q.begin(), q.end());
    r.recv.push_back(queue);
    r.setTagsize.emplace_back(p);

    struct Write {
      int pid, addr;
      Bytes data;
    };
    struct PendingGet {
      int srcPid, srcAddr, len, dstPid, dstAddr;
    };
    std::vector<Write> writes;
    std::vector<PendingGet> gets;
    std::vector<std::vector<Entry>> pushes(p);
    std::vector<std::vector<int>> pops(p);
    std::vector<std::vector<int>> tagsizes(p);
    std::vector<std::vector<Message>> outgoing(p);

    // A put or get names a slot by the caller's own address; the remote address comes from the
    // most recent slot containing it. Returns the remote byte address, or -1 on an error.
    auto remoteAddr = [&](int me, const Op& op) -> int {
      if (op.pid < 0 || op.pid >= p) return fail(s, me, "bad pid"), -1;
      const int k = mostRecent(me, op.area);
      if (k < 0) return fail(s, me, "area not registered"), -1;
      const Entry& e = slots[k][op.pid];
      if (e.area < 0) return fail(s, me, "remote registration is NULL"), -1;
      if (op.offset < 0 || op.len < 0 || op.offset + op.len > e.size)
        return fail(s, me, "out of bounds of the remote registration"), -1;
      return e.area * kAreaBytes + op.offset;
    };

    for (int me = 0; me < p; ++me) {
      Bytes& m = r.mem[me];
      for (const Op& op : st.ops[me]) {
        switch (op.kind) {
          case OpKind::LocalWrite:
            std::copy(op.data.begin(), op.data.end(), m.begin() + op.addr);
            break;
          case OpKind::Put:
          case OpKind::HpPut: {
            // bsp_put copies its source at the call. An hpput may read it at any moment up to the
            // sync, but a correct program does not change it in the superstep: same result.
            const int dst = remoteAddr(me, op);
            if (dst < 0) break;
            if (op.len > 0)
              writes.push_back({op.pid, dst, Bytes(m.begin() + op.addr, m.begin() + op.addr + op.len)});
            break;
          }
          case OpKind::Get:
          case OpKind::HpGet: {
            const int src = remoteAddr(me, op);
            if (src < 0) break;
            if (op.len > 0) gets.push_back({op.pid, src, op.len, me, op.addr});
            break;
          }
          case OpKind::Send: {
            if (st.last) fail(s, me, "send in the last superstep is never received");
            Message msg;
            msg.tag.assign(m.begin() + op.tagAddr, m.begin() + op.tagAddr + T);
            msg.payload.assign(m.begin() + op.addr, m.begin() + op.addr + op.len);
            outgoing[op.pid].push_back(std::move(msg));
            break;
          }
          case OpKind::PushReg:
            if (op.len < 0) fail(s, me, "negative registration size");
            pushes[me].push_back({op.area, op.len});
            break;
          case OpKind::PopReg: {
            const int k = mostRecent(me, op.area);
            if (k < 0) fail(s, me, "pop of an unregistered area");
            pops[me].push_back(k);
            break;
          }
          case OpKind::SetTagsize:
            // Returns the previous tag size: this superstep's last request, else the valid one.
            r.setTagsize[s][me].push_back(tagsizes[me].empty() ? T : tagsizes[me].back());
            tagsizes[me].push_back(op.len);
            break;
          case OpKind::Qsize:
          case OpKind::GetTag:
          case OpKind::Recv:
          case OpKind::HpMove:
            break;  // what they see is checked against recv[s] by compare()
        }
      }
    }

    // The barrier. (bsp_end ends the last superstep; nothing communicates there.)
    // (2) all get sources are read, (3) then all put and get destinations are written.
    for (const PendingGet& g : gets)
      writes.push_back({g.dstPid, g.dstAddr,
                        Bytes(r.mem[g.srcPid].begin() + g.srcAddr,
                              r.mem[g.srcPid].begin() + g.srcAddr + g.len)});
    std::map<std::pair<int, int>, std::uint8_t> written;
    for (const Write& w : writes)
      for (std::size_t i = 0; i < w.data.size(); ++i) {
        auto [it, fresh] = written.emplace(std::make_pair(w.pid, w.addr + static_cast<int>(i)), w.data[i]);
        if (!fresh && it->second != w.data[i]) fail(s, w.pid, "colliding writes of different data");
        r.mem[w.pid][w.addr + i] = w.data[i];
      }
    // Registrations: pops remove the named slot (the same one on every process); the k-th
    // push_reg of every process forms one new slot.
    for (int me = 1; me < p; ++me) {
      if (pops[me] != pops[0]) fail(s, me, "processes pop different slots");
      if (pushes[me].size() != pushes[0].size()) fail(s, me, "different numbers of push_reg");
      if (tagsizes[me] != tagsizes[0]) fail(s, me, "different bsp_set_tagsize arguments");
    }
    std::vector<Slot> next;
    for (int k = 0; k < static_cast<int>(slots.size()); ++k)
      if (std::find(pops[0].begin(), pops[0].end(), k) == pops[0].end()) next.push_back(slots[k]);
    for (std::size_t j = 0; j < pushes[0].size(); ++j) {
      Slot slot(p);
      for (int me = 0; me < p; ++me) slot[me] = pushes[me][j];
      next.push_back(slot);
    }
    slots = std::move(next);
    Tin = T;
    if (!tagsizes[0].empty()) T = tagsizes[0].back();  // the last call of the superstep wins
    queue = std::move(outgoing);                         // unread messages vanish
  }
  return r;
}

// ------------------------------------------------------------------------------------------
// Comparing an observation with the model
// ------------------------------------------------------------------------------------------

namespace {

// What one queue position (one consumed or peeked message) was seen to be.
struct Seen {
  bool haveTag = false;
  Bytes tag;
  int len = -1;
  Bytes prefix;  // known leading payload bytes
  std::string where;
};

bool fits(const Seen& c, const Message& m) {
  if (c.haveTag && c.tag != m.tag) return false;
  if (c.len >= 0 && c.len != static_cast<int>(m.payload.size())) return false;
  if (c.prefix.size() > m.payload.size()) return false;
  return std::equal(c.prefix.begin(), c.prefix.end(), m.payload.begin());
}

// Is there an injective assignment of queue positions to model messages? (Kuhn's algorithm.)
bool matchable(const std::vector<Seen>& seen, const std::vector<Message>& msgs) {
  std::vector<int> owner(msgs.size(), -1);
  std::function<bool(int, std::vector<bool>&)> augment = [&](int i, std::vector<bool>& used) {
    for (std::size_t j = 0; j < msgs.size(); ++j) {
      if (used[j] || !fits(seen[i], msgs[j])) continue;
      used[j] = true;
      if (owner[j] < 0 || augment(owner[j], used)) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  for (std::size_t i = 0; i < seen.size(); ++i) {
    std::vector<bool> used(msgs.size(), false);
    if (!augment(static_cast<int>(i), used)) return false;
  }
  return true;
}

std::string checkQueue(std::size_t s, int pid, int Tin, const std::vector<Message>& msgs,
                       const std::vector<RecvEvent>& events) {
  std::ostringstream err;
  const std::string at = "superstep " + std::to_string(s) + ", P" + std::to_string(pid) + ": ";
  const int total = static_cast<int>(msgs.size());
  int totalBytes = 0;
  for (const Message& m : msgs) totalBytes += static_cast<int>(m.payload.size());
  std::vector<Seen> seen;  // one per queue position reached
  int consumedBytes = 0;
  std::size_t k = 0;  // messages consumed so far
  auto head = [&]() -> Seen& {
    if (seen.size() <= k) seen.resize(k + 1);
    return seen[k];
  };
  // Record the tag/status seen at the head of the queue by a bsp_get_tag.
  auto tagSeen = [&](const RecvEvent& e, const char* what) -> bool {
    if (static_cast<int>(k) >= total) {
      if (e.a != -1) {
        err << at << what << " status " << e.a << " on a queue the model says is empty (" << total
            << " messages)";
        return false;
      }
      if (std::any_of(e.tag.begin(), e.tag.end(), [](std::uint8_t b) { return b != kSentinel; })) {
        err << at << what << " on an empty queue changed the tag buffer to " << hex(e.tag);
        return false;
      }
      return true;
    }
    if (e.a < 0) {
      err << at << what << " says the queue is empty after " << k << " moves; the model has "
          << total << " messages";
      return false;
    }
    for (int i = Tin; i < static_cast<int>(e.tag.size()); ++i)
      if (e.tag[i] != kSentinel) {
        err << at << what << " wrote " << hex(e.tag) << " into the tag buffer, more than the tag size "
            << Tin << " of the messages in the queue";
        return false;
      }
    Seen& h = head();
    Bytes tag(e.tag.begin(), e.tag.begin() + Tin);
    if (h.haveTag && (h.tag != tag || h.len != e.a)) {
      err << at << "repeated bsp_get_tag disagrees about the head of the queue";
      return false;
    }
    h.haveTag = true;
    h.tag = tag;
    h.len = e.a;
    h.where = std::to_string(k);
    return true;
  };
  for (const RecvEvent& e : events) {
    switch (e.kind) {
      case OpKind::Qsize:
        if (e.a != total - static_cast<int>(k) || e.b != totalBytes - consumedBytes) {
          err << at << "bsp_qsize gave (" << e.a << "," << e.b << ") after " << k
              << " moves; the model expects (" << total - static_cast<int>(k) << ","
              << totalBytes - consumedBytes << ")";
          return err.str();
        }
        break;
      case OpKind::GetTag:
        if (!tagSeen(e, "bsp_get_tag")) return err.str();
        break;
      case OpKind::Recv: {
        if (!tagSeen(e, "bsp_get_tag before bsp_move")) return err.str();
        if (static_cast<int>(k) >= total) {
          err << at << "generator bug: bsp_move on an empty queue";
          return err.str();
        }
        const int n = std::min(e.reception, e.a);
        for (int i = n; i < static_cast<int>(e.buf.size()); ++i)
          if (e.buf[i] != kSentinel) {
            err << at << "bsp_move(buf, " << e.reception << ") of a " << e.a
                << "-byte payload wrote beyond byte " << n << ": " << hex(e.buf);
            return err.str();
          }
        head().prefix.assign(e.buf.begin(), e.buf.begin() + n);
        consumedBytes += e.a;
        ++k;
        break;
      }
      case OpKind::HpMove: {
        if (static_cast<int>(k) >= total) {
          if (e.a != -1) {
            err << at << "bsp_hpmove returned " << e.a << " on a queue the model says is empty";
            return err.str();
          }
          break;
        }
        if (e.a < 0) {
          err << at << "bsp_hpmove returned -1 after " << k << " moves; the model has " << total
              << " messages";
          return err.str();
        }
        Seen& h = head();
        if (h.haveTag && (h.tag != e.tag || h.len != e.a)) {
          err << at << "bsp_hpmove disagrees with the preceding bsp_get_tag";
          return err.str();
        }
        h.haveTag = true;
        h.tag = e.tag;
        h.len = e.a;
        h.prefix = e.buf;
        consumedBytes += e.a;
        ++k;
        break;
      }
      default:
        break;
    }
  }
  if (!matchable(seen, msgs)) {
    err << at << "the messages received do not match the model's multiset.\n    received (in order):";
    for (const Seen& c : seen)
      err << " [tag=" << (c.haveTag ? hex(c.tag) : "?") << " len=" << c.len
          << " payload-prefix=" << hex(c.prefix) << "]";
    err << "\n    model:";
    for (const Message& m : msgs) err << " [tag=" << hex(m.tag) << " payload=" << hex(m.payload) << "]";
    return err.str();
  }
  return "";
}

}  // namespace

std::string compare(const Program& prog, const ModelResult& model, const Observed& obs) {
  std::ostringstream err;
  if (!model.error.empty()) return "the model rejects the program: " + model.error;
  for (int pid = 0; pid < prog.p; ++pid) {
    if (obs.mem[pid] != model.mem[pid]) {
      err << "final memory of P" << pid << " differs:\n    runtime " << hex(obs.mem[pid])
          << "\n    model   " << hex(model.mem[pid]) << "\n    bytes:";
      for (int i = 0; i < kMemBytes; ++i)
        if (obs.mem[pid][i] != model.mem[pid][i])
          err << " m[" << i << "]=" << int(obs.mem[pid][i]) << "(model " << int(model.mem[pid][i]) << ")";
      err << "\n";
    }
  }
  for (std::size_t s = 0; s < prog.steps.size(); ++s)
    for (int pid = 0; pid < prog.p; ++pid) {
      if (obs.setTagsize[s][pid] != model.setTagsize[s][pid]) {
        err << "superstep " << s << ", P" << pid << ": bsp_set_tagsize returned";
        for (int v : obs.setTagsize[s][pid]) err << " " << v;
        err << "; the model expects";
        for (int v : model.setTagsize[s][pid]) err << " " << v;
        err << "\n";
      }
      const std::string q = checkQueue(s, pid, model.tagBytesIn[s], model.recv[s][pid], obs.events[s][pid]);
      if (!q.empty()) err << q << "\n";
    }
  return err.str();
}

}  // namespace bspmodel
