#include "tools/commands/show_model.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <utility>

namespace bspcheck::show {

namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return b == 0 ? a : (a + b - 1) / b; }

void finish(Superstep& st, const Settings& s, int p, const std::set<std::pair<int, int>>& pairs) {
  std::uint64_t max_out = 0, max_in = 0;
  for (const ProcStep& ps : st.procs) {
    st.total_bytes += ps.bytes_out;
    st.total_msgs += ps.msgs_out;
    max_out = std::max(max_out, ps.bytes_out);
    max_in = std::max(max_in, ps.bytes_in);
    st.h_msgs = std::max({st.h_msgs, ps.msgs_out, ps.msgs_in});
    st.work_ns = std::max(st.work_ns, ps.work_ns);
    if (s.work == Work::calls) st.w = std::max(st.w, ps.ncalls);
    if (s.work == Work::measured)
      st.w = std::max(st.w, static_cast<std::uint64_t>(static_cast<double>(ps.work_ns) * s.flops_per_ns + 0.5));
  }
  st.h_bytes = std::max(max_out, max_in);
  st.h_words = ceil_div(st.h_bytes, s.word_bytes);
  st.M = ceil_div(st.total_bytes, s.word_bytes);
  st.k1 = ceil_div(max_out, s.word_bytes);
  st.k2 = ceil_div(max_in, s.word_bytes);
  st.pairs = pairs.size();
  for (const auto& [a, b] : pairs) st.L = std::max(st.L, distance(s.topology, p, a, b));
  if (st.M > 0)
    st.linear_time = std::min(std::min(st.k1, st.k2) * st.L, st.M) + static_cast<std::uint64_t>(std::max(p - 2, 0));
}

std::string normalise(const std::string& s) {
  std::string out;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::uint64_t distance(Topology t, int p, int a, int b) {
  const std::uint64_t d = static_cast<std::uint64_t>(a > b ? a - b : b - a);
  if (t == Topology::ring) return std::min(d, static_cast<std::uint64_t>(p) - d);
  return d;
}

namespace {

bool local_sync_call(trace::Call c) { return c >= trace::Call::cbsp_initialize && c < trace::Call::count_; }

// How far processes run ahead of each other, from the order of the calls: a process is in the
// superstep after its k-th sync from its first call after that sync on (the sync call itself
// belongs to the superstep it ends; cBSP syncs are recorded when done, so from that record on).
// A barrier (a marker, or a process's first call after an unannounced bspk_sync) lets every
// process waiting in it go on.
void run_ahead(const trace::Reader& r, Analysis& a) {
  const auto n = static_cast<std::size_t>(a.p);
  std::vector<long> ss(n, 0);
  std::vector<char> pending(n, 0), barrier(n, 0), announced(n, 0), done(n, 0);
  auto leave = [&](std::size_t q) {
    if (!pending[q]) return;
    pending[q] = 0;
    const bool was_barrier = barrier[q];
    const long k = ss[q]++;
    if (was_barrier)  // everyone in this barrier leaves it too
      for (std::size_t o = 0; o < n; ++o)
        if (pending[o] && barrier[o] && ss[o] == k) {
          pending[o] = 0;
          ++ss[o];
        }
  };
  for (const trace::Event& e : r.events()) {
    if (e.type == trace::Event::superstep) {
      for (std::size_t q = 0; q < n; ++q) leave(q);
      continue;
    }
    if (e.type != trace::Event::call) continue;
    const std::size_t pid = e.rec.pid;
    leave(pid);
    const trace::Call c = e.rec.call;
    if (c == trace::Call::end) done[pid] = 1;
    if (c == trace::Call::bspk_expect || c == trace::Call::bspk_will_send) announced[pid] = 1;
    if (c == trace::Call::cbsp_nsync || c == trace::Call::cbsp_gsync) {
      ++ss[pid];  // recorded once the process has left the sync
    } else if (trace::ends_superstep(c)) {
      pending[pid] = 1;
      barrier[pid] = c == trace::Call::sync || (c == trace::Call::bspk_sync && !announced[pid]);
      announced[pid] = 0;
    }
    long lo = -1, hi = -1;
    for (std::size_t q = 0; q < n; ++q) {
      if (done[q]) continue;
      lo = lo < 0 ? ss[q] : std::min(lo, ss[q]);
      hi = std::max(hi, ss[q]);
    }
    if (lo < 0) continue;
    const int ahead = static_cast<int>(hi - lo);
    a.max_ahead = std::max(a.max_ahead, ahead);
    if (static_cast<std::size_t>(lo) < a.steps.size())
      a.steps[static_cast<std::size_t>(lo)].ahead = std::max(a.steps[static_cast<std::size_t>(lo)].ahead, ahead);
  }
}

}  // namespace

namespace {

// One pass over a trace's events, superstep by superstep: each process's calls, bytes and
// messages, the tag size in force, and which supersteps ended without a global barrier.
class Analyser {
 public:
  Analyser(const trace::Reader& r, const Settings& s) : r_(r), s_(s) {
    a_.complete = r.complete();
    a_.measured = !r.work().empty();
    for (const trace::Event& e : r.events())
      if (e.type == trace::Event::call) {
        a_.p = std::max(a_.p, static_cast<int>(e.rec.pid) + 1);
        a_.local_supersteps = a_.local_supersteps || local_sync_call(e.rec.call);
      }
    p_ = a_.p;
    const auto n = static_cast<std::size_t>(p_);
    tag_request_.assign(n, -1);
    local_.assign(n, 0);
    announced_.assign(n, 0);
  }

  Analysis run() {
    open(0);
    const std::vector<trace::WorkRecord>& work = r_.work();
    for (std::size_t i = 0; i < r_.events().size(); ++i) {
      for (; next_work_ < work.size() && work[next_work_].before <= i; ++next_work_) add_work(work[next_work_]);
      const trace::Event& e = r_.events()[i];
      if (e.type == trace::Event::call) {
        count_call(e.rec);
      } else if (a_.local_supersteps) {
        if (e.type == trace::Event::end) break;  // markers of bsp_sync barriers: the local count has them
      } else if (e.type == trace::Event::superstep || e.type == trace::Event::end) {
        if (!end_superstep(e)) break;
      }
    }
    for (; next_work_ < work.size(); ++next_work_) add_work(work[next_work_]);  // after the last event (cut off)
    finish_supersteps();
    run_ahead(r_, a_);
    for (const Superstep& st : a_.steps) {
      a_.W += st.w;
      a_.H_words += st.h_words;
      a_.H_bytes += st.h_bytes;
      a_.M += st.M;
    }
    return std::move(a_);
  }

 private:
  void open(int index) {
    Superstep st;
    st.index = index;
    st.procs.assign(static_cast<std::size_t>(p_), ProcStep{});
    st.tagsize = tagsize_;
    a_.steps.push_back(std::move(st));
    pairs_.emplace_back();
  }
  // The superstep process pid is in (its own, for cBSP and BSPk), opened when it is new.
  std::size_t step_of(std::uint32_t pid) {
    const std::size_t k = a_.local_supersteps ? local_[pid] : a_.steps.size() - 1;
    while (a_.steps.size() <= k) open(static_cast<int>(a_.steps.size()));
    return k;
  }
  void transfer(std::size_t k, int from, int to, std::uint64_t bytes, std::uint64_t tag) {
    Superstep& st = a_.steps[k];
    ProcStep& f = st.procs[static_cast<std::size_t>(from)];
    ProcStep& t = st.procs[static_cast<std::size_t>(to)];
    f.bytes_out += bytes;
    f.tag_bytes_out += tag;
    f.msgs_out += 1;
    t.bytes_in += bytes;
    t.msgs_in += 1;
    if (bytes > 0) pairs_[k].insert({from, to});
  }
  void add_work(const trace::WorkRecord& w) {
    if (w.pid >= static_cast<std::uint32_t>(p_)) return;
    a_.steps[step_of(w.pid)].procs[w.pid].work_ns += w.ns;
  }

  void count_call(const trace::CallRecord& c) {
    const std::size_t k = step_of(c.pid);
    Superstep& st = a_.steps[k];
    ProcStep& ps = st.procs[c.pid];
    ps.calls[static_cast<std::size_t>(c.call)] += 1;
    ps.ncalls += 1;
    a_.calls += 1;
    count_communication(k, c);
    if (a_.local_supersteps) note_local_sync(k, c);
  }

  // What the call communicates, from whom to whom (a get's bytes travel from its target).
  void count_communication(std::size_t k, const trace::CallRecord& c) {
    Superstep& st = a_.steps[k];
    const int pid = static_cast<int>(c.pid);
    const bool valid_target = c.target >= 0 && c.target < p_;
    const int target = static_cast<int>(c.target);
    const auto bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(c.size, 0));
    auto addressed = [&] {
      if (valid_target) st.procs[static_cast<std::size_t>(target)].count_in += 1;
    };
    switch (c.call) {
      case trace::Call::put:
      case trace::Call::hpput:
        if (valid_target && c.size > 0) transfer(k, pid, target, bytes, 0), addressed();
        break;
      case trace::Call::get:
      case trace::Call::hpget:
      case trace::Call::direct_get:
        if (valid_target && c.size > 0) transfer(k, target, pid, bytes, 0), addressed();
        break;
      case trace::Call::send:
        st.sends += 1;
        a_.sends += 1;
        if (valid_target && c.size >= 0) {
          const std::uint64_t tag = s_.tag_bytes ? tagsize_ : 0;
          transfer(k, pid, target, bytes + tag, tag);
          addressed();
        }
        break;
      case trace::Call::cbsp_send:
      case trace::Call::bspk_send:
      case trace::Call::bspk_store:
        if (valid_target) transfer(k, pid, target, bytes, 0), addressed();
        break;
      case trace::Call::bspk_fetch:
        if (valid_target) transfer(k, target, pid, bytes, 0), addressed();
        break;
      case trace::Call::set_tagsize:
        if (c.size >= 0) tag_request_[c.pid] = c.size;
        break;
      default:
        break;
    }
  }

  // cBSP and BSPk: the call that ends a process's own superstep, with or without a barrier.
  void note_local_sync(std::size_t k, const trace::CallRecord& c) {
    if (c.call == trace::Call::bspk_expect || c.call == trace::Call::bspk_will_send) announced_[c.pid] = 1;
    if (!trace::ends_superstep(c.call)) return;
    const bool barrier = c.call == trace::Call::sync || c.call == trace::Call::cbsp_gsync ||
                         (c.call == trace::Call::bspk_sync && !announced_[c.pid]);
    if (synced_.size() <= k) synced_.resize(k + 1, 0), lazily_.resize(k + 1, 0);
    synced_[k] = 1;
    lazily_[k] = lazily_[k] || !barrier;
    announced_[c.pid] = 0;
    ++local_[c.pid];
  }

  // A global barrier (or the end): the superstep is finished and the next opened; false at the end.
  bool end_superstep(const trace::Event& e) {
    Superstep& st = a_.steps.back();
    st.ends = e.type == trace::Event::end ? Superstep::Ends::end : Superstep::Ends::sync;
    finish(st, s_, p_, pairs_.back());
    if (e.type == trace::Event::end) return false;
    // The tag size requested in this superstep holds from the next one (as the runtime does it:
    // process 0's request, else the first requesting process's).
    std::int64_t value = -1;
    for (std::int64_t v : tag_request_)
      if (v >= 0) {
        value = v;
        break;
      }
    if (p_ > 0 && tag_request_[0] >= 0) value = tag_request_[0];
    if (value >= 0) tagsize_ = static_cast<std::uint64_t>(value);
    a_.max_tagsize = std::max(a_.max_tagsize, tagsize_);
    std::fill(tag_request_.begin(), tag_request_.end(), -1);
    open(static_cast<int>(e.value));
    return true;
  }

  // How each superstep ended where no global barrier said so: local syncs, or the trace's end.
  void finish_supersteps() {
    if (a_.local_supersteps) {
      for (std::size_t k = 0; k < a_.steps.size(); ++k) {
        Superstep& st = a_.steps[k];
        if (k < synced_.size() && synced_[k]) st.ends = lazily_[k] ? Superstep::Ends::local : Superstep::Ends::sync;
        else st.ends = a_.complete ? Superstep::Ends::end : Superstep::Ends::cut;
        finish(st, s_, p_, pairs_[k]);
      }
    } else if (!a_.complete) {
      a_.steps.back().ends = Superstep::Ends::cut;
      finish(a_.steps.back(), s_, p_, pairs_.back());
    }
  }

  const trace::Reader& r_;
  const Settings& s_;
  Analysis a_;
  int p_ = 0;
  std::vector<std::int64_t> tag_request_;             // per process: its bsp_set_tagsize of this superstep
  std::uint64_t tagsize_ = 0;                         // in force
  std::vector<std::set<std::pair<int, int>>> pairs_;  // per superstep: communicating (from, to)
  std::vector<std::size_t> local_;                    // per process: its own superstep (cBSP, BSPk)
  std::vector<char> announced_;                       // per process: a bspk_expect or will_send before its sync
  std::vector<char> synced_, lazily_;  // per superstep: some process ended it with a sync; without a barrier
  std::size_t next_work_ = 0;          // the next work record to count
};

}  // namespace

Analysis analyse(const trace::Reader& r, const Settings& s) { return Analyser(r, s).run(); }

std::size_t CountTable::known_steps() const {
  std::size_t n = 0;
  for (const CountStep& st : steps) n += st.known;
  return n;
}

CountTable known_counts(const std::vector<Analysis>& runs) {
  CountTable t;
  t.runs = runs.size();
  std::set<int> ps;
  std::size_t steps = 0;
  for (const Analysis& a : runs) {
    ps.insert(a.p);
    steps = std::max(steps, a.steps.size());
  }
  for (std::size_t k = 0; k < steps; ++k) {
    CountStep cs;
    cs.index = static_cast<int>(k);
    for (int p : ps) {
      CountGroup g;
      g.p = p;
      std::size_t of_p = 0;
      for (const Analysis& a : runs) {
        if (a.p != p) continue;
        ++of_p;
        if (k >= a.steps.size()) continue;
        std::vector<std::uint64_t> counts;
        for (const ProcStep& ps_ : a.steps[k].procs) counts.push_back(ps_.count_in);
        if (g.runs++ == 0) {
          g.counts = std::move(counts);
          continue;
        }
        for (std::size_t q = 0; q < counts.size(); ++q)
          if (counts[q] != g.counts[q] && std::find(g.unknown_receivers.begin(), g.unknown_receivers.end(),
                                                    static_cast<int>(q)) == g.unknown_receivers.end())
            g.unknown_receivers.push_back(static_cast<int>(q));
      }
      if (g.runs == 0) continue;  // no run of this p has the superstep: it does not say
      g.missing = g.runs < of_p;
      std::sort(g.unknown_receivers.begin(), g.unknown_receivers.end());
      g.known = !g.missing && g.unknown_receivers.empty();
      if (!g.known) g.counts.clear();
      cs.known = cs.known && g.known;
      cs.groups.push_back(std::move(g));
    }
    t.steps.push_back(std::move(cs));
  }
  return t;
}

const std::vector<MachineRow>& machine_table() {
  // Table 1 of Hill, McColl, Stefanescu, Goudreau, Lang, Rao, Suel, Tsantilas, Bisseling:
  // "BSPlib: The BSP Programming Library" (Parallel Computing 24, 1998), section 5.1.2. The
  // computing rate is for single-precision float operations, g for 32-bit words.
  static const std::vector<MachineRow> rows = {
      {"SGI Origin 2000", "", 101, 2, 804, 7.0, 8.3},
      {"SGI Origin 2000", "", 101, 4, 1789, 9.1, 10.2},
      {"SGI Origin 2000", "", 101, 8, 3914, 13.2, 15.1},
      {"SGI Origin 2000", "", 101, 16, 15961, 38.6, 44.9},
      {"SGI PowerChallenge", "", 74, 2, 1132, 9.8, 10.2},
      {"SGI PowerChallenge", "", 74, 4, 1902, 9.8, 9.3},
      {"Pentium Pro NOW", "10 Mbit/s shared Ethernet", 61, 2, 52745, 486.3, 484.5},
      {"Pentium Pro NOW", "10 Mbit/s shared Ethernet", 61, 4, 139981, 1098.7, 1128.5},
      {"Pentium Pro NOW", "10 Mbit/s shared Ethernet", 61, 8, 539159, 2171.8, 1994.1},
      {"Pentium Pro NOW", "10 Mbit/s shared Ethernet", 61, 16, 2884273, 3708.2, 3614.6},
      {"Cray T3E", "", 47, 2, 269, 0.9, 2.6},
      {"Cray T3E", "", 47, 4, 357, 0.9, 2.1},
      {"Cray T3E", "", 47, 8, 506, 0.8, 1.6},
      {"Cray T3E", "", 47, 16, 751, 1.0, 1.7},
      {"Cray T3E", "", 47, 32, 1252, 1.3, 1.9},
      {"IBM SP2", "", 26, 2, 1903, 6.3, 7.8},
      {"IBM SP2", "", 26, 4, 3583, 6.4, 8.0},
      {"IBM SP2", "", 26, 8, 5412, 6.9, 11.4},
      {"Cray T3D", "", 12, 2, 164, 0.7, 1.0},
      {"Cray T3D", "", 12, 4, 168, 0.7, 0.8},
      {"Cray T3D", "", 12, 8, 175, 0.8, 0.8},
      {"Cray T3D", "", 12, 16, 181, 0.9, 1.0},
      {"Cray T3D", "", 12, 32, 201, 1.1, 1.4},
      {"Cray T3D", "", 12, 64, 148, 1.0, 1.7},
      {"Cray T3D", "", 12, 128, 301, 1.1, 1.8},
      {"Cray T3D", "", 12, 256, 387, 1.2, 2.4},
      {"Sparc-20 SMP", "", 10, 2, 54, 3.0, 3.4},
      {"Sparc-20 SMP", "", 10, 4, 118, 3.3, 4.1},
  };
  return rows;
}

std::vector<std::string> match_machines(const std::string& query) {
  const std::string q = normalise(query);
  std::vector<std::string> exact, partial;
  if (q.empty()) return {};
  for (const MachineRow& r : machine_table()) {
    const std::string n = normalise(r.machine);
    const std::string full = normalise(std::string(r.machine) + r.note);
    std::vector<std::string>& into = n == q || full == q ? exact : partial;
    if (n != q && full != q && full.find(q) == std::string::npos) continue;
    if (std::find(into.begin(), into.end(), r.machine) == into.end()) into.push_back(r.machine);
  }
  return exact.empty() ? partial : exact;
}

const MachineRow& machine_row(const std::string& machine, int p) {
  const MachineRow* best = nullptr;
  for (const MachineRow& r : machine_table()) {
    if (machine != r.machine) continue;
    if (!best) {
      best = &r;
      continue;
    }
    const int d = std::abs(r.p - p), bd = std::abs(best->p - p);
    if (d < bd || (d == bd && r.p > best->p)) best = &r;
  }
  if (!best) throw std::invalid_argument("unknown machine " + machine);
  return *best;
}

}  // namespace bspcheck::show
