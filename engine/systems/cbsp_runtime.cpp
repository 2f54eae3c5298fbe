// cbsp_runtime.cpp: see cbsp_runtime.hpp.
#include "engine/systems/cbsp_runtime.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>

#include "engine/core/foreign_contexts.hpp"
#include "engine/core/world.hpp"
#include "runtime/executable/executable_at_load.hpp"
#include "runtime/executable/executable_symbols.hpp"
#include "runtime/isolation/heap_owners.hpp"

namespace bspcheck::rt {

namespace {
std::string where(const Site& s) {
  return s.file ? std::string(s.file).substr(std::string(s.file).find_last_of('/') + 1) + ":" + std::to_string(s.line)
                : std::string("?");
}
std::string pid_list(const std::vector<int>& pids) {
  std::string s;
  for (std::size_t i = 0; i < pids.size(); ++i) s += (i ? ", " : "") + std::to_string(pids[i]);
  return s;
}
// Who allocates a heap block now (runtime/isolation/heap_owners.hpp): the running process, on the
// processes' own thread; nobody outside a run or on another thread.
int allocating_process() {
  World* w = World::current();
  return w && on_world_thread() ? w->pid() : -1;
}

// A cBSP program's heap blocks are recorded with their owners from the start, so that a
// destination in the receiver's heap is known as the receiver's (foreign_destination).
__attribute__((constructor)) void track_heap_of_cbsp_programs() {
  if (executable_at_load().imports_cbsp_send) track_heap_owners(&allocating_process);
}

}  // namespace

CbspRuntime::CbspRuntime(World& world)
    : world_(world),
      sync_(world.local_sync()),
      inbox_(static_cast<std::size_t>(world.nprocs())),
      initialized_(static_cast<std::size_t>(world.nprocs()), false),
      gsyncs_(static_cast<std::size_t>(world.nprocs()), 0),
      gsync_superstep_(static_cast<std::size_t>(world.nprocs()), 0),
      round_done_(static_cast<std::size_t>(world.nprocs()), {0, 0}),
      delivering_round_(static_cast<std::size_t>(world.nprocs()), -1),
      in_handler_(static_cast<std::size_t>(world.nprocs()), 0),
      sync_sites_(static_cast<std::size_t>(world.nprocs())) {}

bool CbspRuntime::sync_in_handler(const char* call, int count) {
  const int me = world_.pid();
  if (in_handler_[static_cast<std::size_t>(me)] == 0) return false;
  sync_.report(Rule::api_misuse, std::string(call) +
                                     (count >= 0 ? "(" + std::to_string(count) + ")" : std::string("")) +
                                     " called by process " + std::to_string(me) +
                                     " in a message handler: handlers run inside their receiver's sync (cBSP 4.3), "
                                     "where a sync has no meaning; the call is ignored");
  return true;
}

void CbspRuntime::initialize() {
  initialized_[static_cast<std::size_t>(world_.pid())] = true;
  track_heap_owners(&allocating_process);  // cBSP used from a library: blocks from now on
}

void CbspRuntime::check_initialized(const char* call) {
  const auto me = static_cast<std::size_t>(world_.pid());
  if (initialized_[me]) return;
  initialized_[me] = true;  // once per process
  sync_.report(Rule::api_misuse, std::string(call) +
                                     " before cBSP_initialize: the paper's cBSP_initialize "
                                     "\"creates, allocates, and initializes buffers, assigns logical node "
                                     "numbers\"; call it once after bsp_begin, before any other cBSP call");
}

std::string CbspRuntime::foreign_destination(int node, const void* dest) const {
  const int me = world_.pid();
  const int owner = world_.stack_owner(dest);
  if (owner >= 0) {
    if (owner == node) return "";  // the receiver's own stack: its memory (it told the sender the address)
    return owner == me ? "a local variable on the sender's own stack"
                       : "on process " + std::to_string(owner) + "'s stack";
  }
  // Globals and statics of the program name the receiver's own copy. A bspcheck::run test shares
  // one heap among its processes by design; so does a process sending to itself.
  if (world_.in_program_data(dest) || world_.in_process() || node == me) return "";
  // The heap: a block the receiver allocated is its memory (it told the sender the address).
  HeapBlock block;
  if (heap_block_of(dest, block)) {
    if (block.owner == node) return "";
    return "in a heap block of " + std::to_string(block.size) + " bytes that " +
           (block.owner == me ? std::string("the sender") : "process " + std::to_string(block.owner)) +
           " allocated (each process's heap is its own: an address in one names nothing in another's)";
  }
  return "not a global or static of the program, nor in a heap block the receiver allocated (its address names "
         "nothing the receiver is known to have)";
}

std::string CbspRuntime::destination_overrun(int node, const void* dest, int nbytes) const {
  if (nbytes <= 0) return "";
  const auto a = reinterpret_cast<std::uintptr_t>(dest);
  HeapBlock block;
  if (!world_.in_program_data(dest)) {
    // A block of the receiver's heap has the size it was allocated with.
    if (world_.in_process() || !heap_block_of(dest, block) || block.owner != node) return "";
    const std::size_t room = block.lo + block.size - a;
    if (static_cast<std::size_t>(nbytes) <= room) return "";
    return "a heap block of " + std::to_string(block.size) + " bytes (allocated by process " +
           std::to_string(block.owner) + ") that has " + std::to_string(room) + " bytes from the destination on";
  }
  // Only globals and statics have a size bsp-check can know.
  const std::shared_ptr<const ElfSymbols> symbols = executable_symbols();
  std::uintptr_t lo = 0;
  std::size_t size = 0;
  if (!symbols->extent(a, lo, size)) return "";
  const std::size_t room = lo + size - a;
  if (static_cast<std::size_t>(nbytes) <= room) return "";
  const std::string var = symbols->name(lo);
  return "`" + var + "` (" + std::to_string(size) + " bytes) has " + std::to_string(room) + " bytes from " +
         (a == lo ? var : symbols->name(a)) + " on";
}

long CbspRuntime::tagged(int pid, long superstep) const {
  long n = 0;
  for (const Message& m : inbox_[static_cast<std::size_t>(pid)]) n += m.superstep == superstep;
  return n;
}

void CbspRuntime::report_late(const Message& m, int receiver, long receiver_superstep, const char* why) {
  // Located at the receiver's sync that should have counted it (its current call if none yet).
  const Process& rp = world_.processes()[static_cast<std::size_t>(receiver)];
  const auto& sites = sync_sites_[static_cast<std::size_t>(receiver)];
  const bool known = m.superstep >= 0 && static_cast<std::size_t>(m.superstep) < sites.size();
  const bool global = known && std::string(sites[static_cast<std::size_t>(m.superstep)].call) == "cBSP_gsync";
  Finding f;
  f.rule = rule_id(Rule::cbsp_late_message);
  f.message = "the message process " + std::to_string(m.src) + " sent to process " + std::to_string(receiver) +
              " in superstep " + std::to_string(m.superstep) + " (" + where(m.site) + ") " + why +
              ": it lands in superstep " + std::to_string(receiver_superstep + 1) +
              " or later, while the receiver computes on its destination; " +
              (global ? "the receiver ended superstep " + std::to_string(m.superstep) +
                            " with a cBSP_gsync the sender was not in (they disagree on the superstep)"
                      : "the receiver's count of superstep " + std::to_string(m.superstep) +
                            " is smaller than the messages sent to it");
  f.processes = {m.src, receiver};
  f.superstep = static_cast<int>(m.superstep);
  const SyncSite* at = known ? &sites[static_cast<std::size_t>(m.superstep)] : nullptr;
  f.locations = {at ? world_.diagnostics().location(at->site, receiver, at->call)
                    : world_.diagnostics().location(rp.site, receiver, rp.call),
                 world_.diagnostics().location(m.site, m.src, "cBSP_send")};
  world_.diagnostics().report(std::move(f));
}

void CbspRuntime::send(int node, void* dest, const void* src, int nbytes, Handler handler) {
  const int me = world_.pid();
  check_initialized("cBSP_send");
  if (node < 0 || node >= world_.nprocs()) {
    sync_.report(Rule::bad_pid,
                 "cBSP_send to node " + std::to_string(node) + ": nodes are 0.." + std::to_string(world_.nprocs() - 1));
    return;
  }
  if (nbytes < 0 || (nbytes > 0 && src == nullptr)) {
    sync_.report(Rule::api_misuse, "cBSP_send of " + std::to_string(nbytes) + " bytes from " +
                                       (src ? "a source" : "a NULL source") + ": nbytes must be >= 0 with a source");
    return;
  }
  if (dest == nullptr && handler == nullptr) {
    sync_.report(Rule::api_misuse, "cBSP_send with a NULL destination and no handler: the message goes nowhere");
    return;
  }
  // destAddr is "remote virtual address destAddr on logical node node" (the paper, 4.3): an
  // address that means something in the receiver's memory. The message is still sent and
  // counted, but its data is not written there (a handler gets the message buffer instead):
  // bsp-check does not know what the receiver has at that address.
  if (dest) {
    const std::string why = foreign_destination(node, dest);
    if (!why.empty()) {
      char addr[32];
      std::snprintf(addr, sizeof addr, "%p", dest);
      sync_.report(
          Rule::cbsp_dest_not_global,
          "cBSP_send to node " + std::to_string(node) + " with destination " + addr + ", " + why +
              ": destAddr is an address in the receiving node's memory (the paper: \"written to remote "
              "virtual address destAddr on logical node node\"): a global or static (the receiver's own copy), or "
              "memory the receiver allocated and told the sender; the data is not written",
          {me, node});
      dest = nullptr;
    }
  }
  // The receiver's variable must hold the message: written past its end, the data would
  // overwrite the receiver's neighbouring globals (the paper's cBSP_send writes nbytes at
  // destAddr whatever is there). Sent and counted, but not written, as above.
  if (dest) {
    const std::string past = destination_overrun(node, dest, nbytes);
    if (!past.empty()) {
      sync_.report(
          Rule::cbsp_dest_overrun,
          "cBSP_send of " + std::to_string(nbytes) + " bytes to node " + std::to_string(node) + " at " + past +
              ": the rest would overwrite whatever follows it in the receiver's memory; the data is not written",
          {me, node});
      dest = nullptr;
    }
  }
  Message m{me, sync_.superstep(me), dest, {}, handler, world_.self().site, false};
  const int round = delivering_round_[static_cast<std::size_t>(me)];
  m.round = round >= 0 ? round + 1 : 0;  // sent by a handler a cBSP_gsync runs: its next round
  m.data.assign(static_cast<const unsigned char*>(src), static_cast<const unsigned char*>(src) + nbytes);
  const Process& rp = world_.processes()[static_cast<std::size_t>(node)];
  const bool at_end = rp.state == ProcState::in_end || rp.state == ProcState::finished;
  // A receiver past the superstep: its count was too small (the cause, even when it has reached
  // bsp_end since); one still in it at bsp_end never synced: the message is pending at the end.
  if (sync_.superstep(node) > m.superstep) {
    report_late(m, node, sync_.superstep(node) - 1, "arrives after the receiver left that superstep's sync");
    m.reported = true;
    if (at_end) return;
  } else if (at_end) {
    sync_.report(Rule::cbsp_pending_at_end,
                 "process " + std::to_string(me) + " sends a cBSP message to process " + std::to_string(node) +
                     ", which has already reached bsp_end: it is never delivered",
                 {me, node});
    return;
  }
  inbox_[static_cast<std::size_t>(node)].push_back(std::move(m));
  sync_.notify(node);
}

void CbspRuntime::nsync(int count) {
  const int me = world_.pid();
  check_initialized("cBSP_nsync");
  if (sync_in_handler("cBSP_nsync", count)) return;
  if (count < 0) {
    sync_.report(Rule::api_misuse, "cBSP_nsync(" + std::to_string(count) + "): the count must be >= 0");
    count = 0;
  }
  const long s = sync_.superstep(me);
  sync_sites_[static_cast<std::size_t>(me)].push_back({world_.self().site, "cBSP_nsync"});
  // The sync takes `count` messages of its superstep. Normally all of them at once, when they
  // have arrived. But a handler of a message already here may cause one of the others (a reply
  // to a request, a message to its own process): when no process could go on otherwise, the
  // messages that have arrived are delivered first (LocalSync::Wait::partial), and the sync
  // waits again for the rest. Those delivered earlier are compared with the later ones for
  // overlaps (as a cBSP_gsync's rounds are).
  std::vector<Message> taken;  // delivered by this sync so far (its messages, and late ones)
  long counted = 0;            // of them, messages of superstep s
  for (;;) {
    const long left = count - counted;
    sync_.wait_until({[this, me, s, left] { return tagged(me, s) >= left; },
                      [this, me, s, count, &counted] {
                        return "waits in cBSP_nsync(" + std::to_string(count) + ") with " +
                               std::to_string(counted + tagged(me, s)) + " of " + std::to_string(count) +
                               " messages of its superstep arrived";
                      },
                      Rule::cbsp_count_excess, 2, [this, me, s] { return tagged(me, s) > 0; }});
    // Which of the arrived messages the sync takes is the arrival order: the seed's. The others
    // of this superstep are counted by no sync of it: late. Messages of earlier supersteps
    // (already reported late) land now, uncounted; those of later ones stay.
    std::vector<Message>& in = inbox_[static_cast<std::size_t>(me)];
    std::vector<Message> now, later, mine;
    for (Message& m : in) (m.superstep < s ? now : m.superstep == s ? mine : later).push_back(std::move(m));
    for (Message& m : now)  // arrived while this process was still leaving that superstep's sync
      if (!m.reported) {
        report_late(m, me, m.superstep, "arrived after the receiver's sync of that superstep had taken its messages");
        m.reported = true;
      }
    // Exploring offers only choices that can matter: the arrival order decides only which messages
    // the sync takes (the order they are delivered in is deliver()'s choice).
    if (!world_.scheduler().exploring() || mine.size() > static_cast<std::size_t>(left))
      world_.scheduler().shuffle(mine, ChoiceKind::queue_order);
    for (std::size_t i = 0; i < mine.size(); ++i) {
      if (i < static_cast<std::size_t>(left)) {
        now.push_back(std::move(mine[i]));
        ++counted;
      } else {
        report_late(mine[i], me, s, "is one more than the receiver's cBSP_nsync counts");
        mine[i].reported = true;
        later.push_back(std::move(mine[i]));
      }
    }
    in = std::move(later);
    // Handlers run at the sync, still in superstep s: what they send belongs to it.
    deliver(now, taken);
    for (Message& m : now) taken.push_back(std::move(m));
    if (counted >= count) break;
  }
  sync_.set_superstep(me, s + 1);
}

void CbspRuntime::gsync() {
  const int me = world_.pid();
  const auto meu = static_cast<std::size_t>(me);
  check_initialized("cBSP_gsync");
  if (sync_in_handler("cBSP_gsync", -1)) return;
  const long s = sync_.superstep(me);
  sync_sites_[meu].push_back({world_.self().site, "cBSP_gsync"});
  const long gen = ++gsyncs_[meu];
  gsync_superstep_[meu] = s;
  // Every process has left generation gen - 2 by now (each entered gen - 1, which none leaves
  // before all have entered it): no one reads its counts.
  generations_.erase(generations_.begin(), generations_.lower_bound(gen - 1));
  Generation& generation = generations_[gen];
  const int p = world_.nprocs();
  if (++generation.entered == p) sync_.notify_all();
  auto all_in = [&generation, p] { return generation.entered == p; };
  sync_.wait_until({all_in,
                    [this, gen] {
                      std::vector<int> missing;
                      for (int q = 0; q < world_.nprocs(); ++q)
                        if (gsyncs_[static_cast<std::size_t>(q)] < gen) missing.push_back(q);
                      return "waits in cBSP_gsync for process" + std::string(missing.size() > 1 ? "es " : " ") +
                             pid_list(missing) + " to call cBSP_gsync";
                    },
                    Rule::cbsp_sync_mismatch, 1});
  if (gsyncs_checked_ < gen) {  // the first process through compares the supersteps of all
    gsyncs_checked_ = gen;
    bool agree = true;
    long lowest = s;
    std::string states;
    Finding f;
    for (int q = 0; q < world_.nprocs(); ++q) {
      const auto qu = static_cast<std::size_t>(q);
      agree = agree && gsync_superstep_[qu] == s;
      lowest = std::min(lowest, gsync_superstep_[qu]);
      states += (q ? ", " : "") + std::to_string(q) + ": " + std::to_string(gsync_superstep_[qu]);
      f.processes.push_back(q);
      f.locations.push_back(world_.diagnostics().location(sync_sites_[qu].back().site, q, "cBSP_gsync"));
    }
    if (!agree) {
      f.rule = rule_id(Rule::cbsp_sync_mismatch);
      f.message = "the processes call cBSP_gsync in different cBSP supersteps (process: superstep " + states +
                  "): their cBSP_nsync calls since the last cBSP_gsync differ in number, so messages of one "
                  "superstep are counted in another";
      f.superstep = static_cast<int>(lowest);
      world_.diagnostics().report(std::move(f));
    }
  }
  // Every process is in: deliver until nothing is pending anywhere, in rounds. Round 0 is every
  // message sent to this process before the barrier; round r + 1 the messages the handlers of
  // round r sent, on any process. A round ends when every process has run its handlers, so which
  // round a message is in depends only on what sent it, never on how the processes interleave.
  std::vector<Message> earlier;
  for (int r = 0;; ++r) {
    std::vector<Message>& in = inbox_[meu];
    std::vector<Message> now, later;
    for (Message& m : in) (m.superstep <= s && m.round <= r ? now : later).push_back(std::move(m));
    in = std::move(later);
    if (!world_.scheduler().exploring()) world_.scheduler().shuffle(now, ChoiceKind::queue_order);  // (deliver()'s)
    // Handlers run at the sync, still in superstep s: what they send belongs to it.
    delivering_round_[meu] = r;
    deliver(now, earlier);
    delivering_round_[meu] = -1;
    for (Message& m : now) earlier.push_back(std::move(m));
    const std::pair<long, int> done{gen, r};
    round_done_[meu] = done;
    const auto ru = static_cast<std::size_t>(r);
    if (generation.rounds.size() <= ru) generation.rounds.resize(ru + 1);
    Round& round = generation.rounds[ru];
    if (++round.delivered == p) {  // the last process through round r says whether a next one is needed
      bool more = false;
      for (int q = 0; q < p && !more; ++q)
        for (const Message& m : inbox_[static_cast<std::size_t>(q)])
          more = more || (m.round == r + 1 && m.superstep <= gsync_superstep_[static_cast<std::size_t>(q)]);
      round.more = more;
      sync_.notify_all();
    }
    sync_.wait_until({[&round, p] { return round.delivered == p; },
                      [this, done] {
                        std::vector<int> busy;
                        for (int q = 0; q < world_.nprocs(); ++q)
                          if (round_done_[static_cast<std::size_t>(q)] < done) busy.push_back(q);
                        return "waits in cBSP_gsync for process" + std::string(busy.size() > 1 ? "es " : " ") +
                               pid_list(busy) + " to run the handlers of its round " + std::to_string(done.second) +
                               " of deliveries";
                      },
                      Rule::cbsp_sync_mismatch, 1});
    if (!round.more) break;
  }
  sync_.set_superstep(me, s + 1);
}

bool CbspRuntime::check_overlaps(const std::vector<Message>& batch, const std::vector<Message>& earlier) {
  std::vector<std::pair<const Message*, bool>> by_addr;  // (message, of this batch)
  for (const Message& m : batch)
    if (m.dest && !m.data.empty()) by_addr.push_back({&m, true});
  for (const Message& m : earlier)
    if (m.dest && !m.data.empty()) by_addr.push_back({&m, false});
  std::sort(by_addr.begin(), by_addr.end(),
            [](const auto& a, const auto& b) { return std::less<const void*>()(a.first->dest, b.first->dest); });
  bool any = false;
  // Every overlapping pair, not only neighbours in address order: a long destination can overlap
  // several that follow it (and those need not overlap one another).
  for (std::size_t i = 0; i + 1 < by_addr.size(); ++i) {
    for (std::size_t j = i + 1; j < by_addr.size(); ++j) {
      const Message& a = *by_addr[i].first;
      const Message& b = *by_addr[j].first;
      const auto* a_end = static_cast<const unsigned char*>(a.dest) + a.data.size();
      if (static_cast<const unsigned char*>(b.dest) >= a_end) break;  // nor any after b
      if (!by_addr[i].second && !by_addr[j].second) continue;         // reported in their own round
      any = true;
      const int me = world_.pid();
      Finding f;
      f.rule = rule_id(Rule::cbsp_dst_overlap);
      f.message = "process " + std::to_string(me) + " receives, in one superstep, a message of process " +
                  std::to_string(a.src) + " (" + where(a.site) + ") and one of process " + std::to_string(b.src) +
                  " (" + where(b.site) + ") whose destinations overlap: which one is written last is not defined";
      f.processes = {a.src, b.src, me};
      f.superstep = static_cast<int>(sync_.superstep(me));
      f.locations = {world_.diagnostics().location(a.site, a.src, "cBSP_send"),
                     world_.diagnostics().location(b.site, b.src, "cBSP_send")};
      world_.diagnostics().report(std::move(f));
    }
  }
  return any;
}

void CbspRuntime::deliver(std::vector<Message>& batch, const std::vector<Message>& earlier) {
  if (batch.empty()) return;
  const bool overlap = check_overlaps(batch, earlier);
  // Without handlers or overlapping destinations the order changes nothing: exploring does not
  // offer it.
  bool handlers = false;
  for (const Message& m : batch) handlers = handlers || m.handler;
  const bool order_matters = overlap || handlers || !world_.scheduler().exploring();
  // Each message's data is written before its handler runs; beyond that the interleaving of
  // writes and handlers is the seed's (the paper guarantees no order among handlers).
  const std::size_t n = batch.size();
  std::vector<std::size_t> ready;  // events: i = write message i, n + i = run handler i
  for (std::size_t i = 0; i < n; ++i) ready.push_back(i);
  std::vector<bool> written(n, false);
  const int me = world_.pid();
  while (!ready.empty()) {
    // Choice n - 1 (the default schedule's) takes the first ready event, and a handler is ready
    // first after its write: so the default order is the issue order, each write then its handler.
    const std::size_t k =
        ready.size() > 1 && order_matters
            ? ready.size() - 1 -
                  world_.scheduler().choose(ChoiceKind::write_order, static_cast<std::uint32_t>(ready.size()))
            : 0;
    const std::size_t ev = ready[k];
    ready.erase(ready.begin() + static_cast<std::ptrdiff_t>(k));
    Message& m = batch[ev % n];
    if (ev < n) {
      if (m.dest && !m.data.empty()) std::memcpy(m.dest, m.data.data(), m.data.size());
      written[ev] = true;
      if (m.handler) ready.insert(ready.begin(), n + ev);
      continue;
    }
    // A handler: the destinations of the other messages are compared around it, to find a
    // handler that writes what another message of this sync writes. A destination not written
    // yet is filled with the complement of what it holds, so that any write of the handler
    // changes it (writing back the value it held would not), and gets its old bytes back after;
    // a handler that reads it reads a value no order gives, but such a read is order-dependent
    // already.
    // The messages of earlier rounds of a cBSP_gsync are compared too (they are written).
    const std::size_t all = n + earlier.size();
    auto other = [&](std::size_t j) -> const Message& { return j < n ? batch[j] : earlier[j - n]; };
    std::vector<std::vector<unsigned char>> before(all);
    std::vector<bool> filled(all, false);
    for (std::size_t j = 0; j < all; ++j) {
      if (j == ev - n || !other(j).dest || other(j).data.empty()) continue;
      auto* d = static_cast<unsigned char*>(other(j).dest);
      before[j].assign(d, d + other(j).data.size());
      if (j >= n || written[j]) continue;
      filled[j] = true;
      for (std::size_t b = 0; b < before[j].size(); ++b) d[b] = static_cast<unsigned char>(~before[j][b]);
    }
    void* arg = m.dest ? m.dest : m.data.data();
    ++in_handler_[static_cast<std::size_t>(world_.pid())];
    m.handler(m.src, arg, static_cast<int>(m.data.size()));
    --in_handler_[static_cast<std::size_t>(world_.pid())];
    for (std::size_t j = 0; j < all; ++j) {
      if (before[j].empty()) continue;
      auto* d = static_cast<unsigned char*>(other(j).dest);
      bool wrote = false;
      for (std::size_t b = 0; b < before[j].size(); ++b) {
        const unsigned char untouched = filled[j] ? static_cast<unsigned char>(~before[j][b]) : before[j][b];
        if (d[b] == untouched) {
          if (filled[j]) d[b] = before[j][b];
        } else {
          wrote = true;
        }
      }
      if (!wrote) continue;
      Finding f;
      f.rule = rule_id(Rule::cbsp_handler_conflict);
      f.message = "on process " + std::to_string(me) + ", the handler of the message from process " +
                  std::to_string(m.src) + " (" + where(m.site) +
                  ") wrote the destination of the message from process " + std::to_string(other(j).src) + " (" +
                  where(other(j).site) + ") of the same sync: the result depends on the order of handlers and writes";
      f.processes = {m.src, other(j).src, me};
      f.superstep = static_cast<int>(sync_.superstep(me));
      f.locations = {world_.diagnostics().location(m.site, m.src, "cBSP_send"),
                     world_.diagnostics().location(other(j).site, other(j).src, "cBSP_send")};
      world_.diagnostics().report(std::move(f));
    }
  }
}

void CbspRuntime::before_end(int pid) {
  std::vector<Message>& in = inbox_[static_cast<std::size_t>(pid)];
  for (const Message& m : in) {
    if (m.reported) continue;
    Finding f;
    f.rule = rule_id(Rule::cbsp_pending_at_end);
    f.message = "process " + std::to_string(pid) + " reaches bsp_end with the message process " +
                std::to_string(m.src) + " sent to it in superstep " + std::to_string(m.superstep) + " (" +
                where(m.site) + ") never delivered: no cBSP_nsync or cBSP_gsync received it";
    f.processes = {m.src, pid};
    f.superstep = static_cast<int>(m.superstep);
    const Process& rp = world_.processes()[static_cast<std::size_t>(pid)];
    f.locations = {world_.diagnostics().location(m.site, m.src, "cBSP_send"),
                   world_.diagnostics().location(rp.site, pid, rp.call)};
    world_.diagnostics().report(std::move(f));
  }
  in.clear();
}

}  // namespace bspcheck::rt
