// cbsp_runtime.cpp: see cbsp_runtime.hpp.
#include "engine/cbsp_runtime.hpp"

#include <algorithm>
#include <cstring>

#include "engine/world.hpp"

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
}  // namespace

CbspRuntime::CbspRuntime(World& world)
    : world_(world),
      sync_(world.local_sync()),
      inbox_(static_cast<std::size_t>(world.nprocs())),
      gsyncs_(static_cast<std::size_t>(world.nprocs()), 0),
      gsync_superstep_(static_cast<std::size_t>(world.nprocs()), 0),
      sync_sites_(static_cast<std::size_t>(world.nprocs())) {}

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
  Finding f;
  f.rule = rule_id(Rule::cbsp_late_message);
  f.message = "the message process " + std::to_string(m.src) + " sent to process " + std::to_string(receiver) +
              " in superstep " + std::to_string(m.superstep) + " (" + where(m.site) + ") " + why +
              ": it lands in superstep " + std::to_string(receiver_superstep + 1) +
              " or later, while the receiver computes on its destination; the receiver's count of superstep " +
              std::to_string(m.superstep) + " is smaller than the messages sent to it";
  f.processes = {m.src, receiver};
  f.superstep = static_cast<int>(m.superstep);
  f.locations = {known ? world_.diagnostics().location(sites[static_cast<std::size_t>(m.superstep)], receiver, "cBSP_nsync")
                       : world_.diagnostics().location(rp.site, receiver, rp.call),
                 world_.diagnostics().location(m.site, m.src, "cBSP_send")};
  world_.diagnostics().report(std::move(f));
}

void CbspRuntime::send(int node, void* dest, const void* src, int nbytes, Handler handler) {
  const int me = world_.pid();
  if (node < 0 || node >= world_.nprocs()) {
    world_.report(Rule::bad_pid, "cBSP_send to node " + std::to_string(node) + ": nodes are 0.." +
                                     std::to_string(world_.nprocs() - 1));
    return;
  }
  if (nbytes < 0 || (nbytes > 0 && src == nullptr)) {
    world_.report(Rule::api_misuse, "cBSP_send of " + std::to_string(nbytes) + " bytes from " +
                                        (src ? "a source" : "a NULL source") + ": nbytes must be >= 0 with a source");
    return;
  }
  if (dest == nullptr && handler == nullptr) {
    world_.report(Rule::api_misuse, "cBSP_send with a NULL destination and no handler: the message goes nowhere");
    return;
  }
  Message m{me, sync_.superstep(me), dest, {}, handler, world_.self().site, false};
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
    world_.report(Rule::cbsp_pending_at_end,
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
  if (count < 0) {
    world_.report(Rule::api_misuse, "cBSP_nsync(" + std::to_string(count) + "): the count must be >= 0");
    count = 0;
  }
  const long s = sync_.superstep(me);
  sync_sites_[static_cast<std::size_t>(me)].push_back(world_.self().site);
  sync_.wait_until({[this, me, s, count] { return tagged(me, s) >= count; },
                    [this, me, s, count] {
                      return "waits in cBSP_nsync(" + std::to_string(count) + ") with " +
                             std::to_string(tagged(me, s)) + " of " + std::to_string(count) +
                             " messages of its superstep arrived";
                    },
                    Rule::cbsp_count_excess, 2});
  // Which `count` of the arrived messages the sync takes is the arrival order: the seed's. The
  // others of this superstep are counted by no sync of it: late. Messages of earlier supersteps
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
  if (!world_.scheduler().exploring() || mine.size() > static_cast<std::size_t>(count))
    world_.scheduler().shuffle(mine, ChoiceKind::queue_order);
  for (std::size_t i = 0; i < mine.size(); ++i) {
    if (i < static_cast<std::size_t>(count)) {
      now.push_back(std::move(mine[i]));
    } else {
      report_late(mine[i], me, s, "is one more than the receiver's cBSP_nsync counts");
      mine[i].reported = true;
      later.push_back(std::move(mine[i]));
    }
  }
  in = std::move(later);
  // Handlers run at the sync, still in superstep s: what they send belongs to it.
  deliver(std::move(now));
  sync_.set_superstep(me, s + 1);
}

void CbspRuntime::gsync() {
  const int me = world_.pid();
  const auto meu = static_cast<std::size_t>(me);
  const long s = sync_.superstep(me);
  sync_sites_[meu].push_back(world_.self().site);
  const long gen = ++gsyncs_[meu];
  gsync_superstep_[meu] = s;
  sync_.notify_all();
  auto all_in = [this, gen] {
    for (long g : gsyncs_)
      if (g < gen) return false;
    return true;
  };
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
    std::string states;
    for (int q = 0; q < world_.nprocs(); ++q) {
      agree = agree && gsync_superstep_[static_cast<std::size_t>(q)] == s;
      states += (q ? ", " : "") + std::to_string(q) + ": " + std::to_string(gsync_superstep_[static_cast<std::size_t>(q)]);
    }
    if (!agree)
      world_.report(Rule::cbsp_sync_mismatch,
                    "the processes call cBSP_gsync in different cBSP supersteps (process: superstep " + states +
                        "): their cBSP_nsync calls since the last cBSP_gsync differ in number, so messages of one "
                        "superstep are counted in another");
  }
  // Everything sent to this process before every process entered the barrier lands now.
  std::vector<Message>& in = inbox_[meu];
  std::vector<Message> now, later;
  for (Message& m : in) (m.superstep <= s ? now : later).push_back(std::move(m));
  if (!world_.scheduler().exploring()) world_.scheduler().shuffle(now, ChoiceKind::queue_order);  // (deliver()'s)
  in = std::move(later);
  // Handlers run at the sync, still in superstep s: what they send belongs to it.
  deliver(std::move(now));
  sync_.set_superstep(me, s + 1);
}

bool CbspRuntime::check_overlaps(const std::vector<Message>& batch) {
  std::vector<const Message*> by_addr;
  for (const Message& m : batch)
    if (m.dest && !m.data.empty()) by_addr.push_back(&m);
  std::sort(by_addr.begin(), by_addr.end(), [](const Message* a, const Message* b) {
    return std::less<const void*>()(a->dest, b->dest);
  });
  bool any = false;
  for (std::size_t i = 0; i + 1 < by_addr.size(); ++i) {
    const Message& a = *by_addr[i];
    const Message& b = *by_addr[i + 1];
    const auto* a_end = static_cast<const unsigned char*>(a.dest) + a.data.size();
    if (static_cast<const unsigned char*>(b.dest) >= a_end) continue;
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
  return any;
}

void CbspRuntime::deliver(std::vector<Message> batch) {
  if (batch.empty()) return;
  const bool overlap = check_overlaps(batch);
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
            ? ready.size() - 1 - world_.scheduler().choose(ChoiceKind::write_order, static_cast<std::uint32_t>(ready.size()))
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
    std::vector<std::vector<unsigned char>> before(n);
    std::vector<bool> filled(n, false);
    for (std::size_t j = 0; j < n; ++j) {
      if (j == ev - n || !batch[j].dest || batch[j].data.empty()) continue;
      auto* d = static_cast<unsigned char*>(batch[j].dest);
      before[j].assign(d, d + batch[j].data.size());
      if (written[j]) continue;
      filled[j] = true;
      for (std::size_t b = 0; b < before[j].size(); ++b) d[b] = static_cast<unsigned char>(~before[j][b]);
    }
    void* arg = m.dest ? m.dest : m.data.data();
    m.handler(m.src, arg, static_cast<int>(m.data.size()));
    for (std::size_t j = 0; j < n; ++j) {
      if (before[j].empty()) continue;
      auto* d = static_cast<unsigned char*>(batch[j].dest);
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
                  std::to_string(m.src) + " (" + where(m.site) + ") wrote the destination of the message from process " +
                  std::to_string(batch[j].src) + " (" + where(batch[j].site) +
                  ") of the same sync: the result depends on the order of handlers and writes";
      f.processes = {m.src, batch[j].src, me};
      f.superstep = static_cast<int>(sync_.superstep(me));
      f.locations = {world_.diagnostics().location(m.site, m.src, "cBSP_send"),
                     world_.diagnostics().location(batch[j].site, batch[j].src, "cBSP_send")};
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
                std::to_string(m.src) + " sent to it in superstep " + std::to_string(m.superstep) + " (" + where(m.site) +
                ") never delivered: no cBSP_nsync or cBSP_gsync received it";
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
