#include "tools/across_runs/determinism_check.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <sstream>
#include <vector>

#include "bspcheck/rules.hpp"
#include "replay/replay_scheduler.hpp"
#include "replay/trace_format.hpp"
#include "runtime/base/rng.hpp"
#include "tools/across_runs/check_run_beside.hpp"
#include "tools/across_runs/file_divergence.hpp"
#include "tools/across_runs/output_divergence.hpp"
#include "tools/cli/reproduce_command.hpp"
#include "tools/launch/same_contents.hpp"
#include "tools/launch/temp_files.hpp"

namespace bspcheck::cli {

namespace {

std::string describe(const trace::Event& e) {
  switch (e.type) {
    case trace::Event::call:
      return trace::describe_call(e.rec);
    case trace::Event::choice:
      return "a scheduling choice (" + std::string(rt::choice_kind_text(e.kind)) + ", " + std::to_string(e.value) + ")";
    case trace::Event::superstep:
      return "the barrier into superstep " + std::to_string(e.value);
    case trace::Event::end:
      return "the end of the run";
  }
  return "?";
}

// Where the runs part, read from what differs.
std::string likely_source(const trace::Event& a, const trace::Event& b) {
  if (a.type == trace::Event::call && b.type == trace::Event::call && a.rec.call == b.rec.call &&
      a.rec.pid == b.rec.pid && a.rec.target == b.rec.target && a.rec.size == b.rec.size)
    return "the same call sends different bytes: data from the wall clock (time, gettimeofday, clock_gettime), "
           "rand or random without a fixed seed, getpid, addresses (pointers sent or hashed) or uninitialised "
           "memory (a struct sent whole sends its padding bytes too)";
  return "the program took another path: it read something that is not the same in every run (the wall clock, "
         "rand without a fixed seed, getpid, the environment, a file that changes, another thread)";
}

// A temporary folder for a run's kept files, made by the run if it writes any.
std::string files_folder() { return temp_name("determinism-files"); }

// Two runs of one seed that made the same calls and printed the same but wrote different files.
Finding file_nondeterminism_finding(const RunConfig& c, int p, std::uint64_t seed, const std::string& differs) {
  Finding f;
  f.rule = rule_id(Rule::uncontrolled_nondeterminism);
  f.severity = rule_severity(Rule::uncontrolled_nondeterminism);
  f.message = "two runs of the same seed write different files: " + differs +
              "; likely source: data from the wall clock (time, gettimeofday, clock_gettime), rand without a fixed "
              "seed, getpid or addresses written into the file. No line: the runs made the same BSPlib calls. "
              "Reproduce: " +
              repro_command(c, p, seed) + " (twice, with --keep-files DIR, and compare the files)";
  return f;
}

// A run stopped by its time limit ends its trace wherever the clock stopped it, so two such
// traces part where the clock did, not where the program did: nothing to compare. The same for a
// run that ended without its report (it never reached bsp_begin), and for one killed by a signal
// the runtime did not see (SIGKILL, the out-of-memory killer, a kill from outside): it has the
// report it wrote at its last finding, and running it again would only wait for that run to be
// killed again (or, without --timeout, for ever).
bool stopped_from_outside(const RunOutcome& r) {
  if (r.timed_out || !r.reported || r.exit_status > 128) return true;
  for (const Finding& f : r.report.findings)
    if (f.rule == rule_id(Rule::timeout)) return true;
  return false;
}

// The first event where two traces part, as a finding (its message says where and why, and
// the caller adds how to reproduce it); nothing when they agree.
std::optional<Finding> trace_difference(const std::string& first, const std::string& second) {
  // Two recordings of runs that agree are the same file (the header names the program, not the
  // trace's path): compared as bytes first, where decoding them event by event took a tenth of a
  // one-run session.
  if (same_contents(first, second)) return std::nullopt;
  try {
    // Streamed with bounded memory: traces of long runs are compared without reading them whole.
    trace::EventStream a = trace::EventStream::open(first), b = trace::EventStream::open(second);
    std::uint64_t superstep = 0;
    trace::Event ex, ey;
    const trace::Event* x = &ex;
    const trace::Event* y = &ey;
    for (std::uint64_t i = 0;; ++i) {
      if (!a.next(ex) || !b.next(ey)) return std::nullopt;  // only the common length counts
      const bool same = x->type == y->type && x->kind == y->kind && x->value == y->value &&
                        (x->type != trace::Event::call || x->rec == y->rec);
      if (same) {
        if (x->type == trace::Event::superstep) superstep = x->value;
        continue;
      }
      if (x->type == trace::Event::end || y->type == trace::Event::end) return std::nullopt;  // one was cut short
      Finding f;
      f.rule = rule_id(Rule::uncontrolled_nondeterminism);
      f.severity = rule_severity(Rule::uncontrolled_nondeterminism);
      f.superstep = static_cast<int>(superstep);
      const int pid = x->type == trace::Event::call ? static_cast<int>(x->rec.pid) : -1;
      if (pid >= 0) f.processes = {pid};
      std::ostringstream m;
      m << "two runs of the same seed part at event " << i + 1 << ": one makes " << describe(*x) << ", the other "
        << describe(*y) << "; likely source: " << likely_source(*x, *y) << ".";
      f.message = m.str();
      return f;
    }
  } catch (const trace::TraceError&) {
    // A run that did not record (it never reached bsp_begin, or crashed before): nothing to compare.
  }
  return std::nullopt;
}

// Two digests (trace::Digest) of one seed's runs: do the runs agree as far as their recordings
// can tell? Yes when both recorded the same events, and when neither recorded any (neither
// reached bsp_begin: nothing to compare, as for traces).
bool same_digests(const std::string& a, const std::string& b) {
  const std::optional<trace::Digest> da = trace::read_digest(a), db = trace::read_digest(b);
  return da ? db && *da == *db : !db;
}

// Both runs' digests say they ended: a difference between them is one of the runs' events, not
// of where one was cut off (only the common length of traces counts).
bool both_ended(const std::string& a, const std::string& b) {
  const std::optional<trace::Digest> da = trace::read_digest(a), db = trace::read_digest(b);
  return da && db && da->ended && db->ended;
}

// The runs' digests differed, and two more runs recorded whole to find where did not part.
Finding digests_differ_finding(const RunConfig& c, int p, std::uint64_t seed) {
  Finding f;
  f.rule = rule_id(Rule::uncontrolled_nondeterminism);
  f.severity = rule_severity(Rule::uncontrolled_nondeterminism);
  f.message =
      "two runs of the same seed recorded different events (their traces' digests differ), and two more "
      "runs, recorded whole to find where they part, did not part: the difference did not recur. No line: "
      "neither of the first two runs kept its events. Findings of this program may not reproduce from their "
      "seed. Reproduce: " +
      repro_command(c, p, seed) + " (several times, with --trace, and compare: bsp-check show)";
  return f;
}

// A trace names a call by its kind, process and data, not by its line. Replaying the first run's
// trace puts the program through the same schedule once more; where the call differs again, the
// replay's divergence is located at the call's site, which the finding then names. When the
// replay follows the trace (the difference did not recur) or parts elsewhere, the finding says
// why it has no line (issue 43: every finding is located or says why not).
void locate_by_replay(const RunConfig& again, const std::string& path, int p, std::uint64_t seed,
                      const std::string& trace, StdinFeed& in, Finding& f) {
  RunConfig replaying = again;
  replaying.options.run.trace_file.clear();
  replaying.options.run.replay_file = trace;
  const RunOutcome r = run_once(replaying, path, p, seed, in, false);
  for (const Finding& d : r.report.findings) {
    if (d.rule != rule_id(Rule::replay_divergence) || d.superstep != f.superstep || d.processes != f.processes ||
        d.locations.empty())
      continue;
    f.locations = d.locations;
    f.message += " The call's site was found by replaying the first run's trace, which parted there too.";
    return;
  }
  const bool parted = std::any_of(r.report.findings.begin(), r.report.findings.end(),
                                  [](const Finding& d) { return d.rule == rule_id(Rule::replay_divergence); });
  f.message +=
      " No line: a trace names a call by its kind, process and data, not its line, and replaying the "
      "first run's trace to find the line " +
      std::string(parted ? "parted elsewhere" : "did not part again (the difference did not recur)") + ".";
}

// The words of a line: runs of letters, digits, '.', '_' and ':' (so "0x7ffd1234", "12.5" and
// "10:42:07" are one word each).
std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> words;
  std::string w;
  for (char ch : line) {
    if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || ch == ':') {
      w += ch;
    } else if (!w.empty()) {
      words.push_back(w);
      w.clear();
    }
  }
  if (!w.empty()) words.push_back(w);
  return words;
}

bool all_of(const std::string& s, int (*pred)(int)) {
  if (s.empty()) return false;
  for (char ch : s)
    if (!pred(static_cast<unsigned char>(ch))) return false;
  return true;
}

std::optional<long long> decimal(const std::string& s) {
  if (!all_of(s, [](int ch) { return static_cast<int>(std::isdigit(ch)); }) || s.size() > 18) return std::nullopt;
  return std::stoll(s);
}

bool address_like(const std::string& s) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    return all_of(s.substr(2), [](int ch) { return static_cast<int>(std::isxdigit(ch)); });
  // %p without 0x, or a pointer printed as a number: 8 or more hex digits with a letter among
  // them, or a decimal beyond 32 bits.
  if (s.size() >= 8 && all_of(s, [](int ch) { return static_cast<int>(std::isxdigit(ch)); }) &&
      !all_of(s, [](int ch) { return static_cast<int>(std::isdigit(ch)); }))
    return true;
  const std::optional<long long> d = decimal(s);
  return d && *d > 0xffffffffLL;
}

}  // namespace

int first_differing_output(const checker::RunReport& a, const checker::RunReport& b) {
  if (a.output_hash.size() != b.output_hash.size()) return a.output_hash.empty() || b.output_hash.empty() ? -1 : 0;
  for (std::size_t k = 0; k < a.output_hash.size(); ++k)
    if (a.output_hash[k] != b.output_hash[k]) return static_cast<int>(k);
  return -1;
}

std::string likely_output_source(const std::string& line_a, const std::string& line_b, long pid_a, long pid_b) {
  const std::vector<std::string> wa = words_of(line_a), wb = words_of(line_b);
  std::size_t i = 0;
  while (i < wa.size() && i < wb.size() && wa[i] == wb[i]) ++i;
  const std::string x = i < wa.size() ? wa[i] : "", y = i < wb.size() ? wb[i] : "";
  const std::optional<long long> dx = decimal(x), dy = decimal(y);
  if (dx && dy && pid_a > 0 && pid_b > 0 && *dx == pid_a && *dy == pid_b)
    return "getpid(): \"" + x + "\" and \"" + y +
           "\" are the two runs' process ids (print the BSP process, bsp_pid(), "
           "instead)";
  if (address_like(x) && address_like(y))
    return "an address printed (\"" + x + "\", \"" + y +
           "\": %p, or a pointer as a number): addresses differ from "
           "run to run (ASLR); print an index or an offset instead";
  const long long now = static_cast<long long>(std::time(nullptr));
  const auto near_now = [&](const std::optional<long long>& d) {
    return d && *d > now - 400LL * 86400 && *d < now + 86400;
  };
  if (near_now(dx) && near_now(dy))
    return "the wall clock: \"" + x + "\" and \"" + y +
           "\" are times of day (time, gettimeofday, clock_gettime); "
           "--virtual-time makes them the same in every run";
  const auto timing = [](const std::string& s) {
    return s.find('.') != std::string::npos || s.find(':') != std::string::npos;
  };
  if ((timing(x) || timing(y)) && !x.empty() && !y.empty() && std::isdigit(static_cast<unsigned char>(x[0])) &&
      std::isdigit(static_cast<unsigned char>(y[0])))
    return "a timing or date (\"" + x + "\", \"" + y +
           "\"): clock_gettime, gettimeofday, clock() or time read the "
           "machine's clocks; --virtual-time makes them the same in every run (bsp_time already is)";
  if (dx && dy && *dx > 0 && *dx < 4194304 && *dy > 0 && *dy < 4194304)
    return "a number that changes from run to run (\"" + x + "\", \"" + y +
           "\"): rand or random without a fixed "
           "seed, getpid, uninitialised memory, the environment or a file that changes";
  return "data that is not the same in every run: rand or random without a fixed seed, uninitialised memory, the "
         "environment, a file that changes, another thread";
}

Finding output_nondeterminism_finding(const RunConfig& c, const std::string& path, int p, std::uint64_t seed, int pid,
                                      const RunOutcome* a, const RunOutcome* b, StdinFeed& in) {
  RunOutcome again_a, again_b;
  if (!a || !b) {  // not captured with per-process prefixes: two more runs that are
    RunConfig again = c;
    again.prefix = "[%p] ";
    again.keep_trace = false;
    again.options.run.trace_file.clear();
    again_a = run_once(again, path, p, seed, in, false);
    again_b = run_once(again, path, p, seed, in, false);
    a = &again_a;
    b = &again_b;
  }
  std::string detail = "the two runs' output could not be told apart when run again";
  std::string source = likely_output_source("", "", 0, 0);
  for (std::string RunOutcome::*stream : {&RunOutcome::out, &RunOutcome::err}) {
    const std::vector<std::string> la = lines_of(a->*stream, pid), lb = lines_of(b->*stream, pid);
    std::size_t i = 0;
    while (i < la.size() && i < lb.size() && la[i] == lb[i]) ++i;
    if (i == la.size() && i == lb.size()) continue;
    const std::string x = i < la.size() ? la[i] : "", y = i < lb.size() ? lb[i] : "";
    const auto show = [](const std::vector<std::string>& l, std::size_t k) {
      return k < l.size() ? "\"" + l[k] + "\"" : std::string("(no line)");
    };
    detail = std::string("first difference on ") + (stream == &RunOutcome::out ? "stdout" : "stderr") + ", line " +
             std::to_string(i + 1) + ": one run prints " + show(la, i) + ", the other " + show(lb, i);
    source = likely_output_source(x, y, a->os_pid, b->os_pid);
    break;
  }
  Finding f;
  f.rule = rule_id(Rule::uncontrolled_nondeterminism);
  f.severity = rule_severity(Rule::uncontrolled_nondeterminism);
  f.processes = {pid};
  // Located as schedule-divergence is: the seed twice more, with each line's superstep and call.
  const bool located = locate_output_difference(c, path, p, seed, seed, pid, in, f);
  f.message = "two runs of the same seed make the same calls but print differently: process " + std::to_string(pid) +
              " (p = " + std::to_string(p) + ", seed " + std::to_string(seed) + "), " + detail +
              (located ? " (the locations: each run's last BSPlib call before that line, run once more)"
                       : " (no line: run once more, the two runs did not print differently again, so no BSPlib "
                         "call before the line could be named)") +
              "; likely source: " + source +
              ". Its output is not a function of the seed, so this session does not compare it across seeds "
              "(schedule-divergence). Reproduce: " +
              repro_command(c, p, seed) + " (twice, with --prefix '[%p] ')";
  return f;
}

// Where a run of the check keeps its trace and its files (the folder of its kept files, or empty).
struct RunPlace {
  std::string trace, files;
};

// The check's run of a session's own run: recorded under the first run's own trace path and
// keeping its files under the first run's own folder (keep_files), the first run's set aside
// meanwhile, so that both runs have the same option text and so the same heap below the
// program's first block (a program that sends a heap address, as cBSP programs do, would
// otherwise part by bsp-check's doing). Its trace and files then move to `to` (to.files holds
// them as kept_run_dir names them); the first run's come back to `first`.
RunOutcome run_in_first_runs_place(RunConfig& again, const std::string& keep_files, const std::string& path, int p,
                                   std::uint64_t seed, StdinFeed& in, const RunPlace& first, const RunPlace& to) {
  const std::string aside = to.trace + ".first";
  if (std::rename(first.trace.c_str(), aside.c_str()) != 0) {
    again.options.run.trace_file = to.trace;
    return run_once(again, path, p, seed, in, false);
  }
  const bool files = !to.files.empty();
  std::error_code ec;
  const std::string files_aside = files ? to.files + "/first" : std::string();
  const bool set_aside = files && std::filesystem::create_directories(to.files, ec) &&
                         std::rename(first.files.c_str(), files_aside.c_str()) == 0;
  if (files) again.options.keep_files = keep_files;
  again.options.run.trace_file = first.trace;
  RunOutcome r = run_once(again, path, p, seed, in, false);
  std::rename(first.trace.c_str(), to.trace.c_str());
  std::rename(aside.c_str(), first.trace.c_str());
  if (files) {
    std::filesystem::create_directories(to.files, ec);
    std::rename(first.files.c_str(), kept_run_dir(to.files, p, seed).c_str());
    if (set_aside) std::rename(files_aside.c_str(), first.files.c_str());
  }
  return r;
}

std::optional<DeterminismFinding> check_determinism(const RunConfig& c, const std::string& path, int p,
                                                    std::uint64_t seed, StdinFeed& in,
                                                    const std::optional<RecordedRun>& first, CheckRunBeside* beside) {
  RunConfig again = check_run_config(c);
  const bool digests = first && first->digest;
  again.options.run.trace_digest = digests;  // the same option text as the first run's, as below
  // Each run keeps its files apart, to be compared (a session's own run kept its own already),
  // where the session's runs keep theirs (not where the runs share the real directories).
  const bool files = !c.options.keep_files.empty();
  const std::string files_a = files && !first ? files_folder() : std::string();
  const std::string files_b = files ? files_folder() : std::string();
  const std::string kept_a = first ? kept_run_dir(c.options.keep_files, p, seed) : kept_run_dir(files_a, p, seed);
  struct RemovedAtEnd {  // the two folders go whichever way the check ends
    std::string a, b;
    ~RemovedAtEnd() {
      std::error_code ignored;
      for (const std::string* folder : {&a, &b})
        if (!folder->empty()) std::filesystem::remove_all(*folder, ignored);
    }
  } folders{files_a, files_b};
  again.options.keep_files = files_a;
  // The two runs are given the same environment, down to the length of the trace's path: what
  // the runtime allocates for its options comes before the program's first block, so a program
  // that sends or prints a heap address (a cBSP destination its receiver tells the sender) would
  // otherwise differ by bsp-check's doing, not its own. Each process's lines are told apart by a
  // prefix (the output's digests do not include it); a session's own run keeps its prefix.
  again.prefix = first ? c.prefix : "[%p] ";
  RunOutcome ra;
  std::string trace_a;
  std::vector<std::string> temporary;
  if (first) {
    trace_a = first->trace;
  } else {
    trace_a = temp_file("determinism");
    temporary.push_back(trace_a);
    again.options.run.trace_file = trace_a;
    ra = run_once(again, path, p, seed, in, false);
  }
  const RunOutcome& a = first ? first->outcome : ra;
  if (stopped_from_outside(a)) {   // nothing to compare it with: no second run
    if (beside) beside->cancel();  // and none beside it, which may be waiting for what stopped this one
    for (const std::string& t : temporary) std::remove(t.c_str());
    return std::nullopt;
  }
  again.options.keep_files = files_b;
  RunOutcome rb;
  std::string trace_b, kept_b;
  if (const RunOutcome* ran = first && beside ? beside->outcome() : nullptr) {
    rb = *ran;  // run already, beside the first (check_run_beside.hpp)
    trace_b = beside->trace();
    kept_b = kept_run_dir(beside->files(), p, seed);
  } else {
    trace_b = temp_file("determinism");
    temporary.push_back(trace_b);
    kept_b = kept_run_dir(files_b, p, seed);
    if (first) {
      temporary.push_back(trace_b + ".first");
      rb = run_in_first_runs_place(again, c.options.keep_files, path, p, seed, in, {trace_a, kept_a},
                                   {trace_b, files_b});
    } else {
      again.options.run.trace_file = trace_b;
      rb = run_once(again, path, p, seed, in, false);
    }
  }
  std::optional<DeterminismFinding> out;
  if (!stopped_from_outside(rb) && digests && !same_digests(trace_a, trace_b)) {
    // The runs recorded different events, and neither kept them: two more runs, recorded whole,
    // say where (or that the difference did not recur).
    const bool ended = both_ended(trace_a, trace_b);
    for (const std::string& t : temporary) std::remove(t.c_str());
    if (std::optional<DeterminismFinding> found = check_determinism(c, path, p, seed, in)) return found;
    if (!ended) return std::nullopt;  // one was cut off elsewhere: only the common length counts
    return DeterminismFinding{digests_differ_finding(c, p, seed), false};
  }
  if (!stopped_from_outside(rb)) {
    if (std::optional<Finding> f = digests ? std::nullopt : trace_difference(trace_a, trace_b)) {
      if (!f->processes.empty()) locate_by_replay(again, path, p, seed, trace_a, in, *f);
      else f->message += " No line: the runs part at a choice of the scheduler, not at a call of a process.";
      f->message +=
          " Findings of this program may not reproduce from their seed. Reproduce: " + repro_command(c, p, seed) +
          " (twice, with --trace, and compare: bsp-check show)";
      out = DeterminismFinding{std::move(*f), false};
    } else if (const int pid = first_differing_output(a.report, rb.report); pid >= 0) {
      // The session's own run was not captured with prefixes: output_nondeterminism_finding runs twice more.
      out = DeterminismFinding{first ? output_nondeterminism_finding(c, path, p, seed, pid, nullptr, nullptr, in)
                                     : output_nondeterminism_finding(c, path, p, seed, pid, &a, &rb, in),
                               true};
    } else if (const auto differs =
                   files ? first_file_difference(kept_a, kept_b, "one run", "the other") : std::nullopt) {
      out = DeterminismFinding{file_nondeterminism_finding(c, p, seed, differs->text), true};
    }
  }
  for (const std::string& t : temporary) std::remove(t.c_str());
  return out;
}

}  // namespace bspcheck::cli
