#include "checker/checker.hpp"

#include "checker/hp_source_races.hpp"
#include "checker/repeated_writes.hpp"
#include "checker/writes_by_address.hpp"
#include "runtime/executable/call_stacks.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace bspcheck::checker {

namespace {

std::string pids_text(std::vector<int> pids) {
  std::sort(pids.begin(), pids.end());
  pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
  std::ostringstream s;
  for (std::size_t i = 0; i < pids.size(); ++i) s << (i ? ", " : "") << pids[i];
  return s.str();
}

// A call site; for a call made through a wrapper, also the wrapper's caller (the wrapper's line is
// the same for every caller).
std::string site_key(const rt::Site& s) {
  std::string key = s.file ? std::string(s.file) + ":" + std::to_string(s.line)
                           : std::to_string(reinterpret_cast<std::uintptr_t>(s.pc));
  if (const std::uintptr_t caller = rt::wrapper_caller(s.stack)) key += "@" + std::to_string(caller);
  return key;
}

// site_key's inputs, unformatted: equal raw sites have equal keys (the converse need not hold: one
// file's name may sit at two addresses). check_writes asks it first for every overlapping pair, and
// builds the strings only for a pair of raw sites it has not met (a barrier where a million puts
// rewrite the same words had spent 50x the unchecked run formatting keys).
struct RawSite {
  const char* file;
  int line;
  const void* pc;  // only where file is unknown, as site_key
  std::uintptr_t caller;
  auto tie() const { return std::tie(file, line, pc, caller); }
  bool operator<(const RawSite& o) const { return tie() < o.tie(); }
  bool operator==(const RawSite& o) const { return tie() == o.tie(); }
};
RawSite raw_site(const rt::Site& s) {
  return {s.file, s.file ? s.line : 0, s.file ? nullptr : s.pc, rt::wrapper_caller(s.stack)};
}

// Two calls made at one wrapper line: the same call site when the wrapper was called from the same
// place. The return addresses into the wrapper's caller are compared first (no symbolising). When
// they differ, the program's own lines decide, which is what the user sees: a wrapper inlined into
// its caller has that caller's caller as its second frame, and main's caller on process 0 is the C
// library while on processes 1..p-1 it is the runtime.
bool same_wrapper_caller(std::uint32_t a, std::uint32_t b) {
  if (rt::wrapper_caller(a) == rt::wrapper_caller(b)) return true;
  const rt::SymbolisedStack& sa = rt::symbolised_stack(a);
  const rt::SymbolisedStack& sb = rt::symbolised_stack(b);
  if (sa.user < 0 || sb.user < 0) return false;
  const StackFrame& fa = sa.frames[static_cast<std::size_t>(sa.user)];
  const StackFrame& fb = sb.frames[static_cast<std::size_t>(sb.user)];
  return fa.file == fb.file && fa.line == fb.line;
}

// At most this many earlier overlapping writes are compared with each write: keeps a barrier
// where thousands of writes hit the same bytes linear, and one colliding pair is enough to report.
constexpr std::size_t kMaxOverlapCompares = 64;

// check_writes takes every buffered write's call site at once after this many were asked for one
// by one (and a sixteenth of them): below it, a few reads at random cost less than reading all.
constexpr std::size_t kSitesAskedBeforeTable = 1024;
constexpr std::size_t kSiteLookahead = 16;  // writes ahead whose site table entry is fetched

// memcmp without the library call for the small writes that dominate large supersteps.
bool equal_bytes(const std::byte* a, const std::byte* b, std::size_t n) {
  if (n > 16) return std::memcmp(a, b, n) == 0;
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// What lands last where two buffered writes overlap, as the engine performs the barrier (BSPlib
// paper 3.3 and docs/semantics.md): all get data is written before any put data, and only the
// order within each group is drawn from the seed.
std::string collision_outcome(const char* a, const char* b) {
  const bool a_get = std::strcmp(a, "bsp_get") == 0, b_get = std::strcmp(b, "bsp_get") == 0;
  if (a_get != b_get)
    return "the bsp_get's data is written first and the bsp_put's data lands last, as BSPlib specifies";
  if (a_get) return "which bsp_get's data lands last is drawn from the seed";
  return "which bsp_put's data lands last is drawn from the seed";
}

// Two writes of the superstep that overlap in [lo, hi) with different bytes, or one of them
// unbuffered: put-collision or hp-dst-conflict.
Finding overlap_finding(const WriteSet& writes, std::span<const HpRecord> hp, const Interval& prev, const Interval& cur,
                        std::uintptr_t lo, std::uintptr_t hi, int superstep, Diagnostics& diag) {
  auto site_of = [&](const Interval& x) { return x.is_hp() ? hp[x.index()].site : writes[x.index()].site; };
  auto pid_of = [&](const Interval& x) { return x.is_hp() ? hp[x.index()].caller : writes[x.index()].writer; };
  auto call_of = [&](const Interval& x) { return x.is_hp() ? hp[x.index()].call : writes[x.index()].call; };
  const int owner = cur.is_hp() ? hp[cur.index()].dst_owner : writes[cur.index()].owner;
  Finding f;
  std::ostringstream m;
  if (prev.is_hp() || cur.is_hp()) {
    const Interval& h = prev.is_hp() ? prev : cur;
    const Interval& other = prev.is_hp() ? cur : prev;
    f.rule = rule_id(Rule::hp_dst_conflict);
    m << "the destination of process " << pid_of(h) << "'s " << call_of(h) << " (" << hi - lo
      << " overlapping bytes on process " << owner << ") is also written by process " << pid_of(other) << "'s "
      << call_of(other) << " in the same superstep: an unbuffered operation may land at any moment";
  } else {
    f.rule = rule_id(Rule::put_collision);
    // Two gets of one process into one buffer are one process's two calls, not "processes 0".
    if (pid_of(prev) == pid_of(cur))
      m << "process " << pid_of(cur) << "'s " << call_of(prev) << " and " << call_of(cur);
    else m << "processes " << pids_text({pid_of(prev), pid_of(cur)});
    m << " write different data to the same " << hi - lo << " bytes on process " << owner
      << " in one superstep: " << collision_outcome(call_of(prev), call_of(cur));
  }
  f.message = m.str();
  f.superstep = superstep;
  f.processes = {pid_of(prev), pid_of(cur), owner};
  std::sort(f.processes.begin(), f.processes.end());
  f.processes.erase(std::unique(f.processes.begin(), f.processes.end()), f.processes.end());
  f.locations = {diag.location(site_of(prev), pid_of(prev), call_of(prev)),
                 diag.location(site_of(cur), pid_of(cur), call_of(cur))};
  return f;
}

// The writes that may still overlap later ones, with their call sites counted by site number: a
// write whose site pair with every active site was met already compares nothing. Where one call
// site rewrites the same words over and over (puts that overlap partially) each write had compared
// itself with 64 active ones only to find every pair met.
//
// The writes come in address order, and most end in that order too (writes of one size do): such a
// write joins a queue kept in order of its end, from which the writes that end first leave at its
// front. A write that ends before the last one queued goes to a min-heap on its end instead. A
// single heap had spent most of such a barrier moving a hundred entries down seven levels at every
// write.
class ActiveWrites {
 public:
  static constexpr std::uint32_t kNoSite = UINT32_MAX;  // not taken yet
  struct Entry {
    std::uintptr_t hi;
    std::uint32_t at;  // the write's place in the address order
    std::uint32_t site;
  };
  explicit ActiveWrites(std::span<const Interval> iv) : iv_(iv) {}
  const Interval& write(const Entry& e) const { return iv_[e.at]; }
  bool empty() const { return head_ == queue_.size() && heap_.empty(); }
  // Drops the writes that end at or before lo: every one left overlaps a write starting at lo.
  void drop_ending_by(std::uintptr_t lo) {
    while (head_ != queue_.size() && queue_[head_].hi <= lo) uncount(queue_[head_++].site);
    if (head_ == queue_.size()) queue_.clear(), head_ = 0;
    while (!heap_.empty() && heap_.front().hi <= lo) {
      std::pop_heap(heap_.begin(), heap_.end(), EndsLater{});
      uncount(heap_.back().site);
      heap_.pop_back();
    }
  }
  void add(std::size_t at, std::uint32_t site) {
    const Entry e{iv_[at].hi(), static_cast<std::uint32_t>(at), site};
    if (head_ == queue_.size() || queue_.back().hi <= e.hi) {
      if (head_ > 4096 && head_ * 2 > queue_.size()) {  // reuse the space the front left
        queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(head_));
        head_ = 0;
      }
      queue_.push_back(e);
    } else {
      heap_.push_back(e);
      std::push_heap(heap_.begin(), heap_.end(), EndsLater{});
    }
    count(site);
  }
  // Calls visit(entry) for the active writes until it returns false: the queue's in order of their
  // end, then the heap's in its array order.
  template <typename Visit>
  void each(Visit visit) {
    for (std::size_t i = head_; i < queue_.size(); ++i)
      if (!visit(queue_[i])) return;
    for (Entry& e : heap_)
      if (!visit(e)) return;
  }
  // An active write's site, taken when it is first compared.
  void set_site(Entry& e, std::uint32_t site) {
    uncount(e.site);
    e.site = site;
    count(site);
  }
  // Whether every active write's site is known and pairs with `site` in a pair `met` says was
  // met; asked only while there are few sites (else the answer is "no": compare).
  template <typename Met>
  bool all_pairs_met(std::uint32_t site, Met met) const {
    if (unsited_ || per_site_.size() > kFewSites) return false;
    for (std::uint32_t s = 0; s < per_site_.size(); ++s)
      if (per_site_[s] && !met(std::min(s, site), std::max(s, site))) return false;
    return true;
  }

 private:
  static constexpr std::size_t kFewSites = 16;
  // A type, not a function: std::pop_heap called a function pointer's target out of line at every
  // step down the heap.
  struct EndsLater {
    bool operator()(const Entry& a, const Entry& b) const { return a.hi > b.hi; }
  };
  void count(std::uint32_t site) {
    if (site == kNoSite) return void(++unsited_);
    if (site >= per_site_.size()) per_site_.resize(site + 1, 0);
    ++per_site_[site];
  }
  void uncount(std::uint32_t site) {
    if (site == kNoSite) --unsited_;
    else --per_site_[site];
  }
  std::span<const Interval> iv_;
  std::vector<Entry> queue_;  // [head_, end): ascending ends
  std::size_t head_ = 0;
  std::vector<Entry> heap_;              // the writes that ended before the queue's last
  std::vector<std::uint32_t> per_site_;  // active writes per site number
  std::uint32_t unsited_ = 0;            // active writes whose site is not taken yet
};

// Each write's call site as a small number, taken once as the write becomes active: comparing two
// writes then reads neither record (64 comparisons per write read them at random, most of a
// barrier where a million puts rewrite the same words). Equal sites get equal numbers, which is
// all a number means.
class SiteNumbers {
 public:
  // table: kept between barriers by the caller, emptied here.
  SiteNumbers(const WriteSet& writes, std::span<const HpRecord> hp, std::vector<std::uint32_t>& table)
      : writes_(writes), hp_(hp), table_(table) {
    table_.clear();
  }
  std::uint32_t of(const Interval& x) {
    if (x.is_hp()) return number(hp_[x.index()].site);
    if (!table_.empty()) return table_[x.index()];
    // Asked in address order, a write's site is a read of its record at random: a cache miss per
    // write where a million of them overlap. Once a barrier has asked for a sixteenth of its
    // buffered writes' sites, every site is taken in call order (the records read in a row) into
    // a table of 4 bytes a write.
    if (++asked_ < kSitesAskedBeforeTable || asked_ * 16 < writes_.size()) return number(writes_[x.index()].site);
    table_.resize(writes_.size());
    for (std::size_t i = 0; i < writes_.size(); ++i) table_[i] = number(writes_[i].site);
    return table_[x.index()];
  }
  // The table is read in address order, at random: a later write's entry is asked for ahead.
  void prefetch(const Interval& x) const {
    if (!table_.empty() && !x.is_hp()) __builtin_prefetch(&table_[x.index()]);
  }

 private:
  std::uint32_t number(const rt::Site& site) {
    if (last_site_ && site.file == last_asked_.file && site.line == last_asked_.line &&
        site.stack == last_asked_.stack && site.pc == last_asked_.pc)
      return last_id_;
    last_asked_ = site;
    const RawSite r = raw_site(site);
    if (last_site_ && r == *last_site_) return last_id_;
    const auto at = ids_.emplace(r, static_cast<std::uint32_t>(ids_.size())).first;
    last_site_ = &at->first;
    return last_id_ = at->second;
  }
  const WriteSet& writes_;
  std::span<const HpRecord> hp_;
  std::vector<std::uint32_t>& table_;  // by write, once asked_ is large enough
  std::size_t asked_ = 0;
  std::map<RawSite, std::uint32_t> ids_;
  std::uint32_t last_id_ = 0;
  const RawSite* last_site_ = nullptr;
  rt::Site last_asked_{};  // the site last_id_ was taken for: equal fields, equal raw sites
};

// Whether no two of iv (in address order) overlap: the common superstep, decided in one pass.
bool disjoint(std::span<const Interval> iv) {
  std::uintptr_t reach = 0;
  for (const Interval& x : iv) {
    if (x.lo < reach) return false;
    reach = x.hi();
  }
  return true;
}

}  // namespace

Checker::Checker(Diagnostics& diag)
    : diag_(diag),
      repeated_writes_(std::make_unique<RepeatedWrites>()),
      by_address_(std::make_unique<WritesByAddress>()),
      hp_source_races_(std::make_unique<HpSourceRaces>()) {}
Checker::~Checker() = default;

void Checker::check_writes(const WriteSet& writes, std::span<const HpRecord> hp, int superstep) {
  if (repeated_writes_->disjoint(writes, hp)) return;
  const std::span<const Interval> iv = by_address_->order(writes, hp);
  if (disjoint(iv)) return repeated_writes_->ordered_disjoint();
  auto site_of = [&](const Interval& x) { return x.is_hp() ? hp[x.index()].site : writes[x.index()].site; };
  constexpr std::uint32_t kNoSite = ActiveWrites::kNoSite;
  SiteNumbers sites(writes, hp, site_by_write_);
  std::set<std::pair<std::string, std::string>> reported;  // pairs of call sites
  std::set<std::pair<std::uint32_t, std::uint32_t>> met;   // the same, by site_id (equal ids: equal keys)
  std::pair<std::uint32_t, std::uint32_t> last_met{kNoSite, kNoSite};
  const auto was_met = [&](std::uint32_t a, std::uint32_t b) {
    return std::make_pair(a, b) == last_met || met.count({a, b}) != 0;
  };
  ActiveWrites active(iv);
  const Interval* last_kept = nullptr;
  for (std::size_t at = 0; at < iv.size(); ++at) {
    const Interval& cur = iv[at];
    if (at + kSiteLookahead < iv.size()) sites.prefetch(iv[at + kSiteLookahead]);
    active.drop_ending_by(cur.lo);
    // A buffered write of the same bytes with the same data as the previous one adds nothing:
    // skipping it keeps barriers where many writes hit the same words linear.
    // (Their first bytes, which the intervals carry, decide most of it without reading payloads.)
    if (last_kept && !cur.is_hp() && !last_kept->is_hp() && cur.lo == last_kept->lo &&
        cur.nbytes == last_kept->nbytes && cur.small == last_kept->small &&
        (cur.carries_bytes() ||
         equal_bytes(bytes_from(writes, cur, cur.lo), bytes_from(writes, *last_kept, cur.lo), cur.nbytes)))
      continue;
    // Taken at the first overlap (disjoint writes need none), or at once when its pairs with every
    // active write may all have been met: the comparisons below would then find nothing new.
    std::uint32_t cur_site = kNoSite;
    if (!active.empty()) {
      cur_site = sites.of(cur);
      if (active.all_pairs_met(cur_site, was_met)) {
        active.add(at, cur_site);
        last_kept = &cur;
        continue;
      }
    }
    std::size_t compared = 0;
    active.each([&](ActiveWrites::Entry& e) {
      if (compared++ == kMaxOverlapCompares) return false;
      const Interval& prev = active.write(e);
      const std::uintptr_t lo = std::max(prev.lo, cur.lo), hi = std::min(prev.hi(), cur.hi());
      if (lo >= hi) return true;
      // A pair of sites reported already adds nothing, whatever the bytes: asked first, so that
      // the bytes of writes that collide again and again are not read (most often the pair is the
      // one just met: no set lookup).
      if (e.site == kNoSite) active.set_site(e, sites.of(prev));
      const std::pair<std::uint32_t, std::uint32_t> pair{std::min(e.site, cur_site), std::max(e.site, cur_site)};
      if (pair == last_met) return true;
      if (met.count(pair)) {
        last_met = pair;
        return true;
      }
      if (!prev.is_hp() && !cur.is_hp() &&
          equal_bytes(bytes_from(writes, prev, lo), bytes_from(writes, cur, lo), hi - lo))
        return true;  // the same bytes: no collision
      met.insert(pair);
      last_met = pair;
      auto key = std::make_pair(site_key(site_of(prev)), site_key(site_of(cur)));
      if (key.first > key.second) std::swap(key.first, key.second);
      if (reported.insert(key).second) diag_.report(overlap_finding(writes, hp, prev, cur, lo, hi, superstep, diag_));
      return true;
    });
    active.add(at, cur_site);
    last_kept = &cur;
  }
}

void Checker::check_hp_at_barrier(std::span<const HpRecord> hp, int superstep) {
  // Nothing runs while this checks, so a range's hash cannot change: one that several operations
  // name (the source of a broadcast by p hpputs) is hashed once while it stays in a small
  // direct-mapped cache. A std::map of every range had been a quarter of a checked run of a
  // million hpputs (a node allocated per range). A range stamped by its bytes is compared with
  // them instead (checker/range_stamps.hpp).
  struct Cached {
    const void* p = nullptr;
    std::uint32_t n = 0;
    std::uint64_t hash = 0;
  };
  static constexpr std::size_t kCacheSlots = 4096;
  std::vector<Cached> cache;  // made at the first hashed range
  const auto unchanged = [this, &cache, &hp](const void* p, std::uint32_t n, std::uint64_t stamp) {
    if (!RangeStamps::hashed(n)) return stamps_.same(p, n, stamp);
    if (cache.empty()) cache.resize(std::min(kCacheSlots, 2 * hp.size()));
    const auto key = reinterpret_cast<std::uintptr_t>(p) ^ n;
    Cached& slot = cache[(key ^ (key >> 12)) % cache.size()];
    if (slot.p != p || slot.n != n || !p) slot = {p, n, rt::content_hash(p, n)};
    return slot.hash == stamp;
  };
  const std::span<const std::size_t> writers = hp_source_races_->writers(hp);
  for (std::size_t i = 0; i < hp.size(); ++i) {
    const HpRecord& op = hp[i];
    if (writers[i] != kNoWriter) {
      report_hp_source_race(op, hp[writers[i]], superstep);
    } else if (!unchanged(op.src, op.nbytes, op.src_at_call)) {
      std::ostringstream m;
      m << "the source of process " << op.caller << "'s " << op.call << " (" << op.nbytes << " bytes on process "
        << op.src_owner << ") changed between the call and the end of the superstep; ";
      // MulticoreBSP's bsp_direct_get read at its call (engine/core/world_drma.cpp), the others read
      // when they take effect.
      if (std::strcmp(op.call, "bsp_direct_get") == 0)
        m << "it read the source at once, while process " << op.src_owner << " may be anywhere in its superstep, "
          << "so what it read depends on timing";
      else m << "an unbuffered operation may read its source at any moment in between";
      diag_.report(Finding{rule_id(Rule::hp_src_modified),
                           rule_severity(Rule::hp_src_modified),
                           m.str(),
                           {op.caller, op.src_owner},
                           superstep,
                           {diag_.location(op.site, op.caller, op.call)}});
    }
    if (op.fired && !unchanged(op.dst, op.nbytes, op.dst_after_fire)) {
      std::ostringstream m;
      m << "the destination of process " << op.caller << "'s " << op.call << " (" << op.nbytes << " bytes on process "
        << op.dst_owner << ") was written again in the superstep after the data "
        << "arrived; an unbuffered operation may land at any moment, so the result depends on timing";
      diag_.report(Finding{rule_id(Rule::hp_dst_conflict),
                           rule_severity(Rule::hp_dst_conflict),
                           m.str(),
                           {op.caller, op.dst_owner},
                           superstep,
                           {diag_.location(op.site, op.caller, op.call)}});
    }
  }
}

void Checker::report_hp_source_race(const HpRecord& op, const HpRecord& writer, int superstep) {
  std::ostringstream m;
  m << "the source of process " << op.caller << "'s " << op.call << " (" << op.nbytes << " bytes on process "
    << op.src_owner << ") is written in the same superstep by process " << writer.caller << "'s " << writer.call
    << "; unbuffered operations take effect at any moment until the bsp_sync, in no order, so whether the " << op.call
    << " reads the old or the new bytes depends on timing";
  std::vector<int> pids{op.caller};
  for (const int pid : {op.src_owner, writer.caller})
    if (std::find(pids.begin(), pids.end(), pid) == pids.end()) pids.push_back(pid);
  diag_.report(
      Finding{rule_id(Rule::hp_src_modified),
              rule_severity(Rule::hp_src_modified),
              m.str(),
              std::move(pids),
              superstep,
              {diag_.location(op.site, op.caller, op.call), diag_.location(writer.site, writer.caller, writer.call)}});
}

void Checker::report_dst_written_before_fire(const HpRecord& op, int superstep) {
  std::ostringstream m;
  m << "the destination of process " << op.caller << "'s " << op.call << " (" << op.nbytes << " bytes on process "
    << op.dst_owner << ") was written between the call and the moment the data arrived; an unbuffered "
    << "operation may land at any moment, so the result depends on timing";
  diag_.report(Finding{rule_id(Rule::hp_dst_conflict),
                       rule_severity(Rule::hp_dst_conflict),
                       m.str(),
                       {op.caller, op.dst_owner},
                       superstep,
                       {diag_.location(op.site, op.caller, op.call)}});
}

void Checker::queue_unconsumed(int pid, std::size_t unread, const std::vector<int>& senders, const rt::Site& site,
                               const char* call, int superstep) {
  std::ostringstream m;
  m << "process " << pid << " left " << unread << " message" << (unread == 1 ? "" : "s") << " unread (from process"
    << (senders.size() > 1 ? "es " : " ") << pids_text(senders) << ") at " << call
    << "; unread messages vanish when the next superstep starts";
  diag_.report(Finding{rule_id(Rule::queue_unconsumed),
                       rule_severity(Rule::queue_unconsumed),
                       m.str(),
                       {pid},
                       superstep,
                       {diag_.location(site, pid, call)}});
}

void Checker::move_truncated(int pid, std::size_t payload, std::size_t reception, const rt::Site& site, int superstep) {
  std::ostringstream m;
  m << "process " << pid << " moved a payload of " << payload << " bytes into a reception area of " << reception
    << " bytes: " << payload - reception << " bytes were dropped";
  diag_.report(Finding{rule_id(Rule::move_truncated),
                       rule_severity(Rule::move_truncated),
                       m.str(),
                       {pid},
                       superstep,
                       {diag_.location(site, pid, "bsp_move")}});
}

void Checker::slot_created(const std::vector<const void*>& addrs, const std::vector<rt::Site>& sites, int superstep) {
  // Processes that register NULL often do so on another line on purpose: compare the others.
  const rt::Site* first = nullptr;
  int first_pid = -1;
  std::vector<int> pids;
  std::vector<Location> locs;
  std::set<std::string> seen;
  bool differ = false;
  for (std::size_t pid = 0; pid < sites.size(); ++pid) {
    if (!addrs[pid] || !sites[pid].file) continue;
    if (!first) {
      first = &sites[pid];
      first_pid = static_cast<int>(pid);
    } else if (sites[pid].line != first->line || std::strcmp(sites[pid].file, first->file) != 0 ||
               !same_wrapper_caller(sites[pid].stack, first->stack)) {
      differ = true;
    }
    if (seen.insert(site_key(sites[pid])).second) {
      locs.push_back(diag_.location(sites[pid], static_cast<int>(pid), "bsp_push_reg"));
      pids.push_back(static_cast<int>(pid));
    }
  }
  if (!differ) return;
  (void)first_pid;
  diag_.report(Finding{rule_id(Rule::reg_site_mismatch), rule_severity(Rule::reg_site_mismatch),
                       "one registration slot pairs bsp_push_reg calls made at different source lines on different "
                       "processes; a swapped registration order is the usual cause",
                       pids, superstep, locs});
}

void Checker::registration_order(const std::vector<RegOrderConflict>& conflicts, int superstep) {
  // One finding per superstep; its locations are the push and the pop of the first few processes.
  // Only a push before the pop makes the order visible: a pop before the push removes the older
  // registration whether pops go first or in program order.
  constexpr std::size_t kMaxProcessesShown = 4;
  std::vector<int> pids;
  std::vector<Location> locs;
  for (const RegOrderConflict& c : conflicts) {
    pids.push_back(c.pid);
    if (pids.size() > kMaxProcessesShown) continue;
    locs.push_back(diag_.location(c.push_site, c.pid, "bsp_push_reg"));
    locs.push_back(diag_.location(c.pop_site, c.pid, "bsp_pop_reg"));
  }
  std::ostringstream m;
  m << "process" << (pids.size() > 1 ? "es " : " ") << pids_text(pids) << " pop" << (pids.size() > 1 ? "" : "s")
    << " an address pushed earlier in the same superstep; bsp-check applies registrations in program order, so "
    << "the pop removes that new registration (and an older one of the address stays), but a BSPlib that "
    << "applies all pops before all pushes removes the older one and keeps the new one, or reports an unknown "
    << "pop; push and pop in different supersteps";
  diag_.report(Finding{rule_id(Rule::reg_order_portability), rule_severity(Rule::reg_order_portability), m.str(), pids,
                       superstep, locs});
}

void Checker::registrations_leaked(std::size_t live, const std::vector<rt::Site>& sites, int superstep) {
  std::vector<Location> locs;
  std::set<std::string> seen;
  for (const rt::Site& s : sites)
    if (seen.insert(site_key(s)).second && locs.size() < 5) locs.push_back(diag_.location(s, 0, "bsp_push_reg"));
  std::ostringstream m;
  m << live << " registration" << (live == 1 ? " is" : "s are") << " still active at bsp_end (pushed but never popped)";
  diag_.report(Finding{rule_id(Rule::reg_leak), rule_severity(Rule::reg_leak), m.str(), {0}, superstep, locs});
}

void Checker::hygiene_exit(int pid, const HygieneState& at_enter, const HygieneState& now, const rt::Site& exit_site) {
  std::vector<std::string> what;
  if (now.registrations != at_enter.registrations)
    what.push_back("registrations: " + std::to_string(at_enter.registrations) + " on entry, " +
                   std::to_string(now.registrations) + " on exit");
  if (now.next_tagsize != at_enter.next_tagsize)
    what.push_back("tag size: " + std::to_string(at_enter.next_tagsize) + " on entry, " +
                   std::to_string(now.next_tagsize) + " on exit");
  const bool synced = now.superstep != at_enter.superstep;
  if (synced ? now.unread != 0 : now.unread != at_enter.unread)
    what.push_back("unread messages: " + std::to_string(now.unread) + " on exit" +
                   (synced ? " (the queue must be empty)" : ", " + std::to_string(at_enter.unread) + " on entry"));
  if (what.empty()) return;
  std::string m = "level-1 operation '" + now.name + "' on process " + std::to_string(pid) +
                  " does not leave the BSPlib state as it found it: ";
  for (std::size_t i = 0; i < what.size(); ++i) m += (i ? "; " : "") + what[i];
  diag_.report(Finding{rule_id(Rule::level1_hygiene),
                       rule_severity(Rule::level1_hygiene),
                       m,
                       {pid},
                       now.superstep,
                       {diag_.location(at_enter.site, pid, "bspcheck_level1_enter"),
                        diag_.location(exit_site, pid, "bspcheck_level1_exit")}});
}

}  // namespace bspcheck::checker
