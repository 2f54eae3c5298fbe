// rank_sync.cpp: the end of a superstep on one rank (bsp_sync, bsp_end). The data is exchanged
// first (exchange.hpp) in the engine's order (hp puts, then get sources read, get destinations
// written, puts written): every put and get was resolved at its call, so none of it depends on
// this sync's registrations. Then the ranks compare what must agree, in one MPI_Allreduce of a
// few integers (agreement.hpp): sync or end, the superstep, the numbers of pushes and pops, a
// digest of the slots the pops name, the tag size requested; the same reduction carries the
// virtual clocks and h-relations. Only where they differ is the detail gathered, and rank 0
// reports it with the engine's rule and text. Then registrations take effect, and the virtual
// clocks move to the latest one plus g*h + l. A superstep costs three collectives (the exchange's
// counts and data, the reduction), two more only when some rank has a get, an MPI_Allgather only
// when some rank pushes (docs/mpi.md, "How it works").
#include <algorithm>
#include <bit>
#include <cstring>
#include <deque>
#include <sstream>

#include "mpi/api/rank.hpp"
#include "mpi/report/put_collisions.hpp"
#include "mpi/transport/agreement.hpp"

namespace bspcheck::mpi {

namespace {

constexpr double kByteCost = 1e-9;     // g, as engine/core/virtual_clock.hpp
constexpr double kBarrierCost = 1e-5;  // l

std::string describe_pids(const std::vector<int>& pids) {
  std::ostringstream s;
  for (std::size_t i = 0; i < pids.size(); ++i) s << (i ? (i + 1 == pids.size() ? " and " : ", ") : "") << pids[i];
  return s.str();
}

std::string processes_do(const std::vector<int>& pids, const char* one, const char* many) {
  return std::string("process") + (pids.size() > 1 ? "es " : " ") + describe_pids(pids) + " " +
         (pids.size() > 1 ? many : one);
}

struct StepRecord {
  int ending = 0;
  std::int64_t value = 0;
  SiteRecord site;
};

struct GetRequest {
  int requester;
  std::uint64_t src;
  std::uint32_t nbytes, index;
};

}  // namespace

void Rank::end_superstep(bool ending) {
  in_sync_ = true;
  report_unread_messages();
  const Registrations::Plan plan = regs_->plan();
  deliver();
  std::vector<bool> skip_pops;
  const int tagsize = agree(ending, plan, &skip_pops);
  apply_registrations(plan, skip_pops);
  record_barrier(hp_operations_);
  hp_operations_ = 0;
  if (tagsize >= 0) messages_.set_tagsize(tagsize);
  if (trace_ && !ending) trace_->superstep(static_cast<std::uint64_t>(superstep_ + 1));
  ++superstep_;
  in_sync_ = false;
}

int Rank::agree(bool ending, const Registrations::Plan& plan, std::vector<bool>* skip_pops) {
  const std::int64_t values[] = {ending, superstep_, plan.pushes, plan.pops,
                                 static_cast<std::int64_t>(plan.digest >> 1),  // 63 bits: negated safely
                                 messages_.requested(),
                                 std::count(plan.pop_slots.begin(), plan.pop_slots.end(), -1) > 0,
                                 // A clock is never negative: its bits order as its values do.
                                 std::bit_cast<std::int64_t>(clock_), std::max(bytes_out_, bytes_in_)};
  const std::vector<Spread> s = spread_of(comm_, values);
  if (!s[0].agreed() || !s[1].agreed()) report_superstep_mismatch(ending, static_cast<int>(s[1].min));
  if (!s[3].agreed()) report_count_mismatch(plan, false, s[3].min);
  if (!s[2].agreed()) report_count_mismatch(plan, true, s[2].min);
  if (!s[4].agreed() || s[6].max > 0) report_pop_disagreement(plan, skip_pops);
  advance_clock(std::bit_cast<double>(s[7].max), s[8].max);
  if (s[5].max < 0) return -1;  // nobody asked for a new tag size
  return s[5].agreed() ? static_cast<int>(s[5].max) : report_tagsize_mismatch();
}

void Rank::report_superstep_mismatch(bool ending, int superstep) {
  StepRecord mine{ending, superstep_, record_of(site_)};
  const std::vector<StepRecord> all = gather_all(comm_, mine);
  if (pid_ == 0) {
    std::vector<int> in_sync, in_end;
    for (int r = 0; r < p_; ++r) (all[r].ending ? in_end : in_sync).push_back(r);
    std::string msg;
    if (!in_sync.empty()) msg += processes_do(in_sync, "waits", "wait") + " in bsp_sync";
    if (!in_end.empty())
      msg += std::string(msg.empty() ? "" : " while ") + processes_do(in_end, "reached", "reached") + " bsp_end";
    Finding f{rule_id(Rule::superstep_mismatch),
              rule_severity(Rule::superstep_mismatch),
              msg + ": the processes disagree on the number of supersteps",
              {},
              superstep,
              {}};
    for (int r = 0; r < p_; ++r) {
      f.processes.push_back(r);
      f.locations.push_back(location_of(all[r].site, r));
    }
    findings_.report(f);
  }
  stop_job_together();
}

void Rank::report_count_mismatch(const Registrations::Plan& plan, bool pushes, std::int64_t fewest) {
  const char* what = pushes ? "bsp_push_reg" : "bsp_pop_reg";
  StepRecord mine{0, pushes ? plan.pushes : plan.pops, record_of(site_)};
  // Where this rank differs: its first call without partners on the ranks with fewer.
  std::int64_t k = 0;
  for (const Registrations::Call& c : regs_->calls())
    if (c.push == pushes && k++ == fewest) {
      CallSite extra = c.site;
      extra.call = what;
      mine.site = record_of(extra);
      break;
    }
  const std::vector<StepRecord> all = gather_all(comm_, mine);
  if (pid_ == 0) {
    std::ostringstream s;
    s << "the processes called " << what << " different numbers of times in this superstep (";
    Finding f{rule_id(pushes ? Rule::reg_count_mismatch : Rule::reg_pop_mismatch),
              rule_severity(pushes ? Rule::reg_count_mismatch : Rule::reg_pop_mismatch),
              "",
              {},
              superstep_,
              {}};
    for (int r = 0; r < p_; ++r) {
      s << (r ? ", " : "") << "process " << r << ": " << all[r].value;
      f.processes.push_back(r);
      f.locations.push_back(location_of(all[r].site, r));
    }
    s << ")";
    f.message = s.str();
    findings_.report(f);
  }
  stop_job_together();  // the slot sequence has no meaning after it (docs/semantics.md)
}

void Rank::report_pop_disagreement(const Registrations::Plan& plan, std::vector<bool>* skip_pops) {
  const auto n = static_cast<std::size_t>(plan.pops);
  std::vector<int> all(n * static_cast<std::size_t>(p_));
  MPI_Allgather(plan.pop_slots.data(), static_cast<int>(n), MPI_INT, all.data(), static_cast<int>(n), MPI_INT, comm_);
  std::vector<CallSite> pop_sites;
  for (const Registrations::Call& c : regs_->calls())
    if (!c.push) pop_sites.push_back(c.site);
  skip_pops->assign(n, false);
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<int> unknown;
    bool differ = false;
    for (int r = 0; r < p_; ++r) {
      const int slot = all[static_cast<std::size_t>(r) * n + j];
      if (slot < 0) unknown.push_back(r);
      else if (slot != all[j]) differ = true;
    }
    if (unknown.empty() && !differ) continue;
    (*skip_pops)[j] = true;
    CallSite site = pop_sites[j];
    site.call = "bsp_pop_reg";
    const std::vector<SiteRecord> sites = gather_all(comm_, record_of(site));
    if (pid_ != 0) continue;
    const Rule rule = unknown.empty() ? Rule::reg_pop_mismatch : Rule::reg_pop_unknown;
    Finding f{rule_id(rule), rule_severity(rule), "", {}, superstep_, {}};
    f.message = unknown.empty() ? "the processes' bsp_pop_reg calls name different registration slots"
                                : processes_do(unknown, "pops", "pop") + " an address that is not registered";
    std::vector<int> named = unknown;
    if (named.empty())
      for (int r = 0; r < p_; ++r) named.push_back(r);
    for (int r : named) {
      f.processes.push_back(r);
      f.locations.push_back(location_of(sites[static_cast<std::size_t>(r)], r));
    }
    findings_.report(f);
  }
}

int Rank::report_tagsize_mismatch() {
  const int request = messages_.requested();
  CallSite site = request >= 0 ? tagsize_site_ : site_;
  if (request >= 0) site.call = "bsp_set_tagsize";
  const std::vector<StepRecord> all = gather_all(comm_, StepRecord{0, request, record_of(site)});
  int value = -1;
  for (int r = p_ - 1; r >= 0; --r)
    if (all[r].value >= 0) value = static_cast<int>(all[r].value);  // process 0's, else the first setter's
  if (pid_ == 0) {
    std::ostringstream s;
    s << "the processes set different tag sizes in this superstep (";
    Finding f{rule_id(Rule::tagsize_mismatch), rule_severity(Rule::tagsize_mismatch), "", {}, superstep_, {}};
    for (int r = 0; r < p_; ++r) {
      s << (r ? ", " : "") << "process " << r << ": ";
      if (all[r].value >= 0) s << all[r].value;
      else s << "no call";
      f.processes.push_back(r);
      f.locations.push_back(location_of(all[r].site, r));
    }
    s << ")";
    f.message = s.str();
    findings_.report(f);
  }
  return value;
}

void Rank::apply_registrations(const Registrations::Plan& plan, const std::vector<bool>& skip_pops) {
  std::vector<Registrations::Entry> gathered;
  if (plan.pushes > 0) {
    const std::vector<Registrations::Entry> mine = regs_->own_pushes();
    const int bytes = static_cast<int>(mine.size() * sizeof(Registrations::Entry));
    gathered.resize(mine.size() * static_cast<std::size_t>(p_));
    MPI_Allgather(mine.data(), bytes, MPI_BYTE, gathered.data(), bytes, MPI_BYTE, comm_);
  }
  // Every rank has made its reads of the superstep (they end before its sync): the popped areas
  // leave the window.
  for (const Registrations::Entry& gone : regs_->apply(plan, gathered, skip_pops))
    if (window_) window_->uncover(reinterpret_cast<const void*>(gone.addr), gone.size);
}

void Rank::deliver() {
  // Unbuffered puts read their source now, and land first at the target.
  for (const PendingHpPut& hp : hpputs_) {
    if (digest_hp_sources_ && digest(hp.src, static_cast<std::size_t>(hp.nbytes)) != hp.src_digest)
      findings_.report_here(Rule::hp_src_modified,
                            "the source of process " + std::to_string(pid_) + "'s " + hp.call_site.call + " (" +
                                std::to_string(hp.nbytes) + " bytes on process " + std::to_string(pid_) +
                                ") changed between the call and the end of the superstep; an unbuffered operation "
                                "may read its source at any moment in between",
                            superstep_, hp.call_site, {pid_, pid_});
    std::vector<std::byte>& out = exchange_->outgoing(hp.pid);
    append_value(out, Record::put);
    append_value(out, std::uint8_t{1});
    append_value(out, hp.dst);
    append_value(out, static_cast<std::uint32_t>(hp.nbytes));
    append_value(out, hp.site);
    append_bytes(out, hp.src, static_cast<std::size_t>(hp.nbytes));
  }
  hpputs_.clear();
  const bool any_gets = exchange_->run(!gets_.empty());

  std::vector<LandingWrite> puts;
  std::vector<GetRequest> requests, hp_requests;
  messages_.start_queue();
  for (int src = 0; src < p_; ++src) {
    Reader in(exchange_->received(src));
    while (!in.done()) {
      const auto kind = in.value<Record>();
      if (kind == Record::message) {
        messages_.take(in, src, &bytes_in_);
        continue;
      }
      if (kind == Record::site) {
        put_sites_->define(src, in);
        continue;
      }
      const auto hp = in.value<std::uint8_t>();
      const auto addr = in.value<std::uint64_t>();
      const auto nbytes = in.value<std::uint32_t>();
      if (kind == Record::put) {
        const auto site = in.value<std::uint32_t>();
        const std::byte* data = in.take(nbytes);
        bytes_in_ += nbytes;
        if (hp) std::memcpy(reinterpret_cast<void*>(addr), data, nbytes);
        else puts.push_back({addr, nbytes, data, src, put_sites_->site(src, site)});
      } else {
        const auto index = in.value<std::uint32_t>();
        (hp ? hp_requests : requests).push_back({src, addr, nbytes, index});
      }
    }
  }
  // The sources of all gets are read before any put lands; an hpget's is read with them.
  if (any_gets) {
    for (const auto* list : {&hp_requests, &requests})
      for (const GetRequest& g : *list) {
        std::vector<std::byte>& out = replies_->outgoing(g.requester);
        append_value(out, g.index);
        append_bytes(out, reinterpret_cast<const void*>(g.src), g.nbytes);
        bytes_out_ += g.nbytes;
      }
    replies_->run();
  }
  // A buffered get's data lands before any put's (BSPlib 3.3): both are this rank's buffered
  // writes, whose overlaps are put-collisions like two puts' (the engine's rule, checker.cpp).
  const bool collisions = findings_.enabled(Rule::put_collision);
  std::vector<LandingWrite> writes;
  std::deque<SiteRecord> get_sites;  // the gets' sites, where writes points at them
  CallSite last_site;                // (one record for a run of gets from one call site)
  for (int src = 0; any_gets && src < p_; ++src) {
    Reader in(replies_->received(src));
    while (!in.done()) {
      const PendingGet& g = gets_[in.value<std::uint32_t>()];
      const std::byte* data = in.take(static_cast<std::size_t>(g.nbytes));
      if (g.src_read && digest(data, static_cast<std::size_t>(g.nbytes)) != g.src_digest)
        report_hpget_source_changed(g);
      std::memcpy(g.dst, data, static_cast<std::size_t>(g.nbytes));
      if (!collisions || g.unbuffered) continue;
      if (get_sites.empty() || g.site.file != last_site.file || g.site.line != last_site.line) {
        get_sites.push_back(record_of(g.site));
        last_site = g.site;
      }
      writes.push_back({reinterpret_cast<std::uint64_t>(g.dst), static_cast<std::uint32_t>(g.nbytes), data, pid_,
                        &get_sites.back()});
    }
  }
  gets_.clear();
  if (!writes.empty()) writes.insert(writes.end(), puts.begin(), puts.end());
  const std::vector<LandingWrite>& landing = writes.empty() ? puts : writes;  // no copy without gets
  if (landing.size() > 1 && collisions)
    for (const Finding& f : put_collisions(landing, pid_, superstep_)) findings_.report(f);
  for (const LandingWrite& put : puts) std::memcpy(reinterpret_cast<void*>(put.dst), put.data, put.nbytes);
}

void Rank::report_hpget_source_changed(const PendingGet& g) {
  // The engine's text (checker/checker.cpp): what the sync delivered is not what the source held
  // at the call, so the owner (or an hpput landing there) changed it in the superstep.
  findings_.report_here(Rule::hp_src_modified,
                        "the source of process " + std::to_string(pid_) + "'s " + g.site.call + " (" +
                            std::to_string(g.nbytes) + " bytes on process " + std::to_string(g.owner) +
                            ") changed between the call and the end of the superstep; an unbuffered operation "
                            "may read its source at any moment in between",
                        superstep_, g.site, {pid_, g.owner});
}

void Rank::report_unread_messages() {
  // Decided by the receiving rank alone: its queue is its own (engine/core/world_bsmp.cpp's text).
  const int unread = messages_.count();
  if (unread == 0 || !findings_.enabled(Rule::queue_unconsumed)) return;
  const std::vector<int> senders = messages_.unread_senders();
  std::ostringstream senders_text;
  for (std::size_t i = 0; i < senders.size(); ++i) senders_text << (i ? ", " : "") << senders[i];
  report(Rule::queue_unconsumed, "process " + std::to_string(pid_) + " left " + std::to_string(unread) + " message" +
                                     (unread == 1 ? "" : "s") + " unread (from process" +
                                     (senders.size() > 1 ? "es " : " ") + senders_text.str() + ") at " + site_.call +
                                     "; unread messages vanish when the next superstep starts");
}

void Rank::advance_clock(double latest, std::int64_t h) {
  if (!real_time_) clock_ = latest + kByteCost * static_cast<double>(h) + kBarrierCost;
  bytes_out_ = bytes_in_ = 0;
}

}  // namespace bspcheck::mpi
