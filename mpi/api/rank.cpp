// rank.cpp: the SPMD framework of one rank: starting MPI, bsp_begin's grant, bsp_end, bsp_abort,
// the clock, and the end of a job that a rank leaves early.
#include "mpi/api/rank.hpp"

#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <sys/time.h>
#include <unistd.h>

#include "checker/finding_text.hpp"
#include "mpi/api/command_line.hpp"
#include "runtime/base/rng.hpp"
#include "runtime/options/option_values.hpp"

namespace bspcheck::mpi {

namespace {

constexpr double kCallCost = 1e-6;  // the engine's virtual clock (engine/core/virtual_clock.hpp)

// Options the back end reads: realtime=1 in BSPCHECK_OPTIONS (the engine's key) makes bsp_time real.
bool option_set(const char* key) {
  const char* opts = std::getenv("BSPCHECK_OPTIONS");
  if (!opts) return false;
  const std::string all = std::string(":") + opts + ":";
  return all.find(std::string(":") + key + "=1:") != std::string::npos;
}

// The value of key=VALUE in BSPCHECK_OPTIONS ("" when absent).
std::string option_value(const char* key) {
  const char* opts = std::getenv("BSPCHECK_OPTIONS");
  if (!opts) return "";
  const std::string all = std::string(":") + opts + ":", name = std::string(":") + key + "=";
  const std::size_t at = all.find(name);
  if (at == std::string::npos) return "";
  const std::size_t from = at + name.size();
  return all.substr(from, all.find(':', from) - from);
}

// The rules `check=0` turns off, as in the engine (options.def): those that span several calls.
// The sync's agreement (superstep-mismatch, the registration counts) stays: without it a wrong
// program would hang in a collective or land data in the wrong slot.
constexpr Rule kCrossCallRules[] = {Rule::put_collision, Rule::hp_src_modified, Rule::queue_unconsumed,
                                    Rule::move_truncated, Rule::reg_leak};

void rank_at_exit() { Rank::the().at_exit(); }

void rank_crashed(int sig) { Rank::the().crashed(sig); }

void rank_timed_out(int) { Rank::the().timed_out(); }

// The signals that end a process with a crash: each reported as the finding `crash`, then the
// job ends (MPI's launcher would otherwise say only that a rank died).
constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

}  // namespace

Rank& Rank::the() {
  static Rank* rank = new Rank();  // never destroyed: at_exit runs after static destructors may have
  return *rank;
}

void Rank::start_mpi(int* argc, char*** argv) {
  int started = 0;
  MPI_Initialized(&started);
  if (!started) MPI_Init(argc, argv);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size_);
  MPI_Comm_rank(MPI_COMM_WORLD, &pid_);
}

bool Rank::enter(const CallSite& site) {
  site_ = site;
  if (active_) {
    clock_ += kCallCost;
    return true;
  }
  std::string where = site.file ? std::string(" at ") + site.file + ":" + std::to_string(site.line) : "";
  Finding f{rule_id(Rule::api_misuse),
            rule_severity(Rule::api_misuse),
            std::string(site.call) + (ended_ ? " called after bsp_end" : " called before bsp_begin") + where,
            {pid_},
            superstep_,
            {location_of(site, pid_)}};
  const std::string text = checker::render_finding_outside_spmd(f, "");
  std::fwrite(text.data(), 1, text.size(), stderr);
  failed_ = true;
  return false;
}

void Rank::init(void (*spmd)(void), int argc, char** argv) {
  start_mpi(&argc, &argv);
  // As BSPonMPI: every rank runs main up to bsp_init; rank 0 goes on in main, the others run the
  // SPMD function (which ends in bsp_end, where they leave).
  if (pid_ != 0) {
    spmd();
    std::exit(status());
  }
}

void Rank::begin(int maxprocs) {
  start_mpi(nullptr, nullptr);
  // Process 0's request counts, as in the engine: in the bsp_init style the others' maxprocs is
  // whatever their own copy of main's variables says.
  MPI_Bcast(&maxprocs, 1, MPI_INT, 0, MPI_COMM_WORLD);
  const int granted = maxprocs < 1 ? 1 : (maxprocs < world_size_ ? maxprocs : world_size_);
  const bool member = pid_ < granted;
  MPI_Comm_split(MPI_COMM_WORLD, member ? 0 : MPI_UNDEFINED, pid_, &comm_);
  if (!member) {
    // Ranks beyond the grant idle until the others reach bsp_end (as BSPonMPI's do).
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    std::exit(0);
  }
  p_ = granted;
  begun_ = active_ = true;
  // Each rank's lines reach mpiexec whole, so that the ranks' output interleaves by lines only.
  // MPICH leaves stdout unbuffered, with a one-byte buffer that line buffering would keep: a
  // buffer of our own, for the process's lifetime.
  static char line_buffer[BUFSIZ];
  std::fflush(stdout);
  std::setvbuf(stdout, line_buffer, _IOLBF, sizeof line_buffer);
  findings_.set_process(pid_);
  regs_ = std::make_unique<Registrations>(p_, pid_);
  exchange_ = std::make_unique<Exchange>(comm_, p_, 1);
  replies_ = std::make_unique<Exchange>(comm_, p_, 2);
  put_sites_ = std::make_unique<PutSites>(p_);
  real_time_ = option_set("realtime");
  command_line_ = command_line();
  read_options();
  if (const std::string prefix = option_value("trace"); !prefix.empty()) try {
      trace_ = open_trace(prefix);
    } catch (const trace::TraceError& e) {
      refuse_at_begin(e.what());
    }
  real_start_ = MPI_Wtime();
  // The engine's processes 1..p-1 run main again inside the run, so the calls they make before
  // bsp_begin (bsp_begin(bsp_nprocs())) are on their clocks; process 0's are not.
  clock_ = pid_ == 0 ? 0 : kCallCost * static_cast<double>(calls_before_begin_);
  std::atexit(rank_at_exit);
  for (int sig : kCrashSignals) std::signal(sig, rank_crashed);
}

void Rank::read_options() {
  try {
    if (const std::string check = option_value("check"); !check.empty() && !rt::BoolValue::parse("check", check))
      for (Rule rule : kCrossCallRules) findings_.disable(rule_id(rule));
    if (const std::string rules = option_value("disable"); !rules.empty())
      for (const std::string& rule : rt::RuleListValue::parse("disable", rules)) findings_.disable(rule);
    report_file_.open(option_value("report"), pid_, command_line_);
    // Both name each rank's file PATH.rank<K>: the partial reports would write into the records.
    if (report_file_.wanted() && report_file_.path() == option_value("trace"))
      throw std::invalid_argument("report: '" + report_file_.path() +
                                  "' is trace='s PATH too: each rank's partial report and its record would both be "
                                  "PATH.rank<K>; give them different paths");
    if (const std::string text = option_value("timeout"); !text.empty())
      timeout_seconds_ = rt::SecondsValue::parse("timeout", text);
  } catch (const std::invalid_argument& e) {
    refuse_at_begin(std::string("BSPCHECK_OPTIONS: ") + e.what());
  }
  // No rank starts the program before rank 0 has checked what only it checks (report=): the
  // others wait for what rank 0 sends after that check, the job's number (which its reports
  // carry) and whether hp-src-modified is on (reading hpget sources takes every rank's window,
  // so rank 0's choice holds for all).
  std::uint64_t shared[2] = {0, findings_.enabled(Rule::hp_src_modified)};
  if (pid_ == 0) {
    std::random_device entropy;
    shared[0] = (std::uint64_t{entropy()} << 32 | entropy()) ^ static_cast<std::uint64_t>(MPI_Wtime() * 1e9);
  }
  MPI_Bcast(shared, 2, MPI_UINT64_T, 0, comm_);
  report_file_.set_job(shared[0]);
  digest_hp_sources_ = shared[1] != 0;
  if (digest_hp_sources_ && p_ > 1) {
    window_ = std::make_unique<RegisteredWindow>(comm_);
    if (!window_->ok()) window_.reset();  // said in the report's "unchecked" (job_report)
  }
  if (report_file_.wanted()) {
    partial_report_.open(report_file_.path() + ".rank" + std::to_string(pid_),
                         report_file_.named(job_report(false), {pid_}));
    findings_.set_partial_report(&partial_report_);
  }
  if (timeout_seconds_ > 0) arm_timeout();
}

void Rank::arm_timeout() {
  // Counted from bsp_begin, as in the engine: the ranks leave its MPI_Comm_split together, so
  // their alarms ring within moments of each other and each says where it is.
  struct sigaction sa {};
  sa.sa_handler = rank_timed_out;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGALRM, &sa, nullptr);
  itimerval t{};
  t.it_value.tv_sec = static_cast<time_t>(timeout_seconds_);
  t.it_value.tv_usec = static_cast<suseconds_t>((timeout_seconds_ - static_cast<double>(t.it_value.tv_sec)) * 1e6);
  setitimer(ITIMER_REAL, &t, nullptr);
}

void Rank::timed_out() {
  if (!begun_) return;
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", timeout_seconds_);
  // Where the engine names every process at once, here each rank names itself: a rank stuck in
  // its own code cannot answer the others, and one waiting in a collective cannot ask them.
  Location l = location_of(site_, pid_);
  const std::string state = ended_     ? "reached bsp_end"
                            : in_sync_ ? std::string("waiting in ") + site_.call
                                       : "not at the barrier";
  l.state = state;
  Finding f{rule_id(Rule::timeout),
            rule_severity(Rule::timeout),
            "the job did not finish within its time limit of " + std::string(limit) +
                " s (timeout=, counted from bsp_begin); in superstep " + std::to_string(superstep_) + ", process " +
                std::to_string(pid_) + " was " + (ended_ || in_sync_ ? "" : "running, ") + state +
                " (each rank says where it was)",
            {pid_},
            superstep_,
            {l}};
  findings_.report(f);
  active_ = false;  // at_exit has nothing more to say
  write_report_alone();
  stop_job();
}

void Rank::end() {
  record(trace::Call::end, -1, 0);
  end_superstep(true);
  if (trace_) {
    record_memory();
    trace_->end();
  }
  trace_.reset();
  if (pid_ == 0) report_leaked_registrations();
  int mine = findings_.errors() > 0 || failed_, any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm_);
  failed_ = any != 0;
  if (report_file_.gather_and_write(comm_, pid_, findings_.kept(), job_report(true))) partial_report_.remove();
  active_ = false;
  ended_ = true;
  std::fflush(nullptr);
  if (window_) window_->close();
  MPI_Comm_free(&comm_);
  MPI_Barrier(MPI_COMM_WORLD);  // the idle ranks wait here
  if (timeout_seconds_ > 0) {
    const itimerval off{};
    setitimer(ITIMER_REAL, &off, nullptr);  // the job is over
  }
  MPI_Finalize();
  // Process 0 goes on in main; the others stop at bsp_end, as in the engine.
  if (pid_ != 0) std::exit(status());
}

void Rank::report_leaked_registrations() {
  // The slots are the same on every rank: rank 0 reports, at its own pushes, as the engine does.
  const std::vector<CallSite> sites = regs_->live_sites();
  if (sites.empty()) return;
  Finding f{rule_id(Rule::reg_leak), rule_severity(Rule::reg_leak), "", {0}, superstep_ - 1, {}};
  std::set<std::pair<std::string, int>> seen;
  for (CallSite site : sites)
    if (seen.insert({site.file ? site.file : "", site.line}).second && f.locations.size() < 5) {
      site.call = "bsp_push_reg";
      f.locations.push_back(location_of(site, 0));
    }
  f.message = std::to_string(sites.size()) + " registration" + (sites.size() == 1 ? " is" : "s are") +
              " still active at bsp_end (pushed but never popped)";
  findings_.report(f);
}

int Rank::nprocs() {
  if (active_) return p_;
  if (!begun_) ++calls_before_begin_;
  int started = 0;
  MPI_Initialized(&started);
  if (!started) start_mpi(nullptr, nullptr);
  return world_size_;
}

double Rank::time() {
  record(trace::Call::time, -1, 0);
  if (!real_time_) return clock_;
  const double now = MPI_Wtime() - real_start_;
  // A real reading is the run's own: kept in the record (in ns), which the engine's replay, with
  // virtual readings, does not follow (docs/mpi.md).
  if (trace_) trace_->choice(static_cast<std::uint8_t>(rt::ChoiceKind::time), static_cast<std::uint64_t>(now * 1e9));
  return now;
}

void Rank::report(Rule rule, std::string message, std::vector<int> processes) {
  findings_.report_here(rule, std::move(message), superstep_, site_, std::move(processes));
}

void Rank::abort(const std::string& message) {
  record(trace::Call::abort, -1, 0, message.data(), message.size());
  std::string text = message;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  report(Rule::abort, "process " + std::to_string(pid_) + " called bsp_abort: " + text);
  aborted_ = true;
  abort_message_ = text;
  partial_report_.aborted(text);
  write_report_alone();
  stop_job();
}

void Rank::stop_job() {
  if (trace_) {  // cut off where the job ends: its replay goes that far
    record_memory();
    trace_->flush();
  }
  active_ = false;  // at_exit has nothing more to say
  abort_job(1);
}

void Rank::refuse_at_begin(const std::string& message) {
  // Every rank meets the same options and the same trace folder: rank 0 says it once, and its
  // abort ends the others within the second they wait (a rank whose own case alone is wrong, its
  // environment or its trace file, says it then).
  if (pid_ != 0) sleep(1);
  std::fprintf(stderr, "bsp-check: error: %s\n", message.c_str());
  abort_job(2);
}

void Rank::abort_job(int status) {
  std::fflush(nullptr);
  // mpiexec forwards what the ranks wrote as it reads it, and stops reading when the abort kills
  // them: a moment for the last lines to reach it first (only ever on a failing path).
  usleep(200 * 1000);
  MPI_Abort(MPI_COMM_WORLD, status);
  _exit(status);
}

void Rank::crashed(int sig) {
  for (int s : kCrashSignals) std::signal(s, SIG_DFL);
  if (!active_) std::raise(sig);
  // Located at the last BSPlib call: the line where the signal struck is the engine's to find
  // (its symboliser), which a replay of the run will give.
  std::string name = std::string("SIG") + (sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
  std::string what = strsignal(sig);
  for (char& c : what) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  report(Rule::crash, "process " + std::to_string(pid_) + " received " + name + " (" + what +
                          "); its last BSPlib call was " + site_.call);
  write_report_alone();
  stop_job();
}

void Rank::stop_job_together() {
  std::fflush(nullptr);
  if (report_file_.gather_and_write(comm_, pid_, findings_.kept(), job_report(false))) partial_report_.remove();
  MPI_Barrier(comm_);
  stop_job();
}

checker::RunReport Rank::job_report(bool completed) const {
  checker::RunReport job;
  job.procs_available = world_size_;
  job.nprocs = p_;
  job.supersteps = superstep_ - (completed ? 1 : 0);  // as the engine counts: bsp_end's is not one
  job.completed = completed;
  job.aborted = aborted_;
  if (digest_hp_sources_ && p_ > 1 && !window_)
    job.unchecked.push_back(
        "hp-src-modified of a bsp_hpget from another rank: this MPI made no dynamic window "
        "(MPI_Win_create_dynamic) to read its source at the call");
  job.abort_message = abort_message_;
  return job;
}

void Rank::at_exit() {
  if (active_) {
    report(Rule::superstep_mismatch, "process " + std::to_string(pid_) +
                                         " returned from main or called exit() inside the SPMD part, "
                                         "without calling bsp_end");
    write_report_alone();
    stop_job();
  }
  if (ended_ && pid_ == 0 && failed_) {
    // The run's findings decide the exit status, whatever main returned.
    std::fflush(nullptr);
    _exit(1);
  }
}

}  // namespace bspcheck::mpi
