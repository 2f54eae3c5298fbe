// rank.hpp: one BSP process of the MPI back end, which is one MPI rank (docs/mpi.md). It holds
// what the engine's World holds for one process: its registration slots, its BSMP queue, the
// superstep's buffered operations, its virtual clock; the primitives check their arguments here
// as the engine does (the same rules and text), and the sync (rank_sync.cpp) is where the ranks
// compare what must agree and exchange the superstep's data.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mpi/api/put_sites.hpp"
#include "mpi/messages/messages.hpp"
#include "mpi/registration/registrations.hpp"
#include "mpi/report/findings.hpp"
#include "mpi/report/run_report.hpp"
#include "mpi/transport/registered_window.hpp"
#include "mpi/transport/exchange.hpp"
#include "replay/trace_format.hpp"

namespace bspcheck::mpi {

class Rank {
 public:
  // The one of this OS process.
  static Rank& the();

  // The call about to be made (its site from bsp.h's macros): charged to the virtual clock.
  // False (after reporting api-misuse) outside bsp_begin..bsp_end.
  bool enter(const CallSite& site);

  // SPMD framework.
  void init(void (*spmd)(void), int argc, char** argv);
  void begin(int maxprocs);
  void end();
  void sync() {
    record(trace::Call::sync, -1, 0);
    end_superstep(false);
  }
  [[noreturn]] void abort(const std::string& message);
  int nprocs();
  int pid() const { return pid_; }
  double time();
  bool active() const { return active_; }
  // At the OS process's exit: a rank still inside the SPMD part ends the job (superstep-mismatch).
  void at_exit();
  // A crash signal in this rank: the finding, then the job ends.
  [[noreturn]] void crashed(int sig);
  // timeout=S (the engine's key) has passed since bsp_begin: this rank says where it is (every
  // rank's alarm rings at about the same time), then the job ends.
  void timed_out();
  // The exit status the run's findings give (1 after an error).
  int status() const { return failed_ ? 1 : 0; }

  // DRMA.
  void push_reg(const void* ident, int size);
  void pop_reg(const void* ident);
  void put(int pid, const void* src, void* dst, int offset, int nbytes, bool unbuffered);
  void get(int pid, const void* src, int offset, void* dst, int nbytes, bool unbuffered);

  // BSMP.
  void set_tagsize(int* tag_nbytes);
  void send(int pid, const void* tag, const void* payload, int nbytes);
  void qsize(int* nmessages, int* accum_nbytes);
  void get_tag(int* status, void* tag);
  void move(void* payload, int reception_nbytes);
  int hpmove(void** tag_ptr, void** payload_ptr);

 private:
  struct PendingGet {
    void* dst;
    int nbytes;
    bool unbuffered;
    CallSite site;             // a buffered get's data may collide with a put's (put-collision, at this rank)
    int owner;                 // the source's rank
    bool src_read;             // an hpget's source was read at the call (hp-src-modified):
    std::uint64_t src_digest;  // what it held
  };
  struct PendingHpPut {
    int pid;
    const void* src;
    std::uint64_t dst;
    int nbytes;
    std::uint32_t site;
    CallSite call_site;
    std::uint64_t src_digest;  // the source's contents at the call (hp-src-modified)
  };
  // A digest of n bytes: equal contents, equal digests; a change is missed with odds 2^-64.
  static std::uint64_t digest(const void* p, std::size_t n);

  void start_mpi(int* argc, char*** argv);
  // check=0, disable=RULES, report=PATH and timeout=S in BSPCHECK_OPTIONS (the engine's keys); a
  // wrong value, or a report rank 0 cannot write, ends the job (exit status 2).
  void read_options();
  // timeout=S: the alarm, S seconds after bsp_begin.
  void arm_timeout();
  // Recording (trace=PATH, rank_trace.cpp): this rank's record, PATH.rank<K>.
  std::unique_ptr<trace::Writer> open_trace(const std::string& prefix);
  // The call as the engine's trace records it (engine/core/world.cpp, traced_call).
  void record(trace::Call call, long target, long size, const void* data = nullptr, std::size_t n = 0) {
    if (!trace_) return;
    trace::CallRecord rec;
    rec.call = call;
    rec.pid = static_cast<std::uint32_t>(pid_);
    rec.target = target;
    rec.size = size;
    if (data && n) rec.checksum = trace::checksum(data, n);
    trace_->call(rec);
  }
  // The most memory this rank's data took (its peak resident set less what it held at bsp_begin,
  // MPI's and the program image's), as the record's last measurement: a replay of all ranks in
  // one process adds them up to say beforehand whether they fit (docs/mpi.md).
  void record_memory();
  // What the sync delivered: the number of unbuffered operations that took effect, the queue's order.
  void record_barrier(std::uint64_t hp_operations);
  bool check_transfer_args(int pid, int offset, int nbytes, const void* local, const char* local_name);
  // The target's address of (local address + offset) on rank `target`, or 0 after a finding.
  std::uint64_t resolve(int target, const void* local, int offset, int nbytes, bool is_put);
  void report(Rule rule, std::string message, std::vector<int> processes = {});
  void end_superstep(bool ending);
  void report_leaked_registrations();
  // rank_sync.cpp's steps.
  // The tag size of the next superstep (-1: unchanged); a fatal disagreement stops the job.
  int agree(bool ending, const Registrations::Plan& plan, std::vector<bool>* skip_pops);
  [[noreturn]] void report_superstep_mismatch(bool ending, int superstep);
  [[noreturn]] void report_count_mismatch(const Registrations::Plan& plan, bool pushes, std::int64_t fewest);
  void report_pop_disagreement(const Registrations::Plan& plan, std::vector<bool>* skip_pops);
  int report_tagsize_mismatch();
  void apply_registrations(const Registrations::Plan& plan, const std::vector<bool>& skip_pops);
  void deliver();
  void report_unread_messages();                          // queue-unconsumed, before the queue is replaced
  void report_hpget_source_changed(const PendingGet& g);  // hp-src-modified of a bsp_hpget, at its caller
  // The clocks move to the latest one plus g*h + l (h: the largest of the ranks' h-relations).
  void advance_clock(double latest, std::int64_t h);
  // The job as its report (report=PATH) says it, ended (completed) or not: all but the findings.
  checker::RunReport job_report(bool completed) const;
  // The report of a job this rank ends alone (a crash, bsp_abort, an exit inside the SPMD part).
  void write_report_alone() const { report_file_.write_alone(pid_, findings_.kept(), job_report(false)); }
  [[noreturn]] void stop_job();
  // A bad option or an unwritable trace at bsp_begin: one line (rank 0's), exit status 2.
  [[noreturn]] void refuse_at_begin(const std::string& message);
  // The job ends now with `status`, once this rank's output is on its way to mpiexec.
  [[noreturn]] void abort_job(int status);
  // After a finding the ranks decided together: once rank 0 has printed it (a rank aborting
  // first would end the job before it does).
  [[noreturn]] void stop_job_together();

  MPI_Comm comm_ = MPI_COMM_NULL;
  int world_size_ = 1;
  int pid_ = 0, p_ = 1;
  bool begun_ = false, active_ = false, ended_ = false, failed_ = false;
  bool real_time_ = false;
  bool in_sync_ = false;           // between entering bsp_sync (or bsp_end) and leaving it: for a timeout
  double timeout_seconds_ = 0;     // timeout=S
  bool digest_hp_sources_ = true;  // hp-src-modified is on: each hpput's source is digested twice
  double real_start_ = 0;
  int superstep_ = 0;
  CallSite site_;
  CallSite tagsize_site_;  // this superstep's last bsp_set_tagsize
  Findings findings_;
  // Every rank's registered memory, readable at any moment: an hpget's source at its call
  // (made only where hp-src-modified is on).
  std::unique_ptr<RegisteredWindow> window_;
  RunReportFile report_file_;              // report=PATH: the job's report, gathered at rank 0
  PartialReportFile partial_report_;       // PATH.rank<K>: this rank's findings as they come
  std::vector<std::string> command_line_;  // this process's, read once at bsp_begin
  bool aborted_ = false;                   // by bsp_abort, whose message the report keeps
  std::string abort_message_;
  std::unique_ptr<Registrations> regs_;
  std::unique_ptr<Exchange> exchange_, replies_;
  std::unique_ptr<PutSites> put_sites_;
  Messages messages_;
  std::vector<PendingGet> gets_;
  std::vector<PendingHpPut> hpputs_;
  // The h-relation's parts this rank knows at the call: bytes it sends and receives.
  std::int64_t bytes_out_ = 0, bytes_in_ = 0;
  double clock_ = 0;  // virtual bsp_time, seconds since bsp_begin
  int calls_before_begin_ = 0;
  std::unique_ptr<trace::Writer> trace_;  // trace=PATH: this rank's record
  std::uint64_t resident_at_begin_ = 0;   // bytes, with trace=PATH (record_memory)
  std::uint64_t hp_operations_ = 0;       // this superstep's valid hpputs and hpgets (the record's)
};

// The wire records of a superstep's exchange, one kind byte first.
// A put names its call site by an id (put_sites.hpp), which a site record defines once.
enum class Record : std::uint8_t { put = 1, get = 2, message = 3, site = 4 };

}  // namespace bspcheck::mpi
