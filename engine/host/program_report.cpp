// program_report.cpp: the run's report in program mode. At the end a JSON report is written for
// the bsp-check driver (or the binary form through a fork server's page); as findings are printed,
// the report so far, so that a run killed from outside keeps them.
#include "engine/host/program_report.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "checker/binary_report.hpp"
#include "checker/finding_codec.hpp"
#include "checker/finding_text.hpp"
#include "engine/host/program_session.hpp"
#include "runtime/base/outside_files.hpp"
#include "runtime/isolation/file_view.hpp"
#include "runtime/isolation/fork_server.hpp"
#include "runtime/options/option_values.hpp"

namespace bspcheck::rt::program {

namespace {

// The report of the sections so far (the run's findings, without those outside the SPMD part).
checker::RunReport sections_so_far(bool completed) {
  const ProgramOptions& o = options();
  checker::RunReport r = g_session.finished_sections;  // empty but for a second or later SPMD section
  r.seed = o.run.seed;
  r.procs_available = o.run.procs;
  r.completed = completed;
  if (World* w = g_session.world.get()) {
    r.nprocs = std::max(r.nprocs, w->nprocs());
    r.supersteps += w->completed_supersteps();
    r.aborted = w->aborted();
    r.abort_message = w->abort_message();
    r.switches += w->switches();
    // A process's output over the sections: each section's digest folded into the earlier ones'.
    for (const Process& pr : w->processes()) {
      const std::uint64_t digest = pr.output.digest.value();
      const auto pid = static_cast<std::size_t>(pr.pid);
      if (pid < r.output_hash.size())
        r.output_hash[pid] = (r.output_hash[pid] ^ digest) * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
      else r.output_hash.push_back(digest);
    }
    if (g_session.section == 1) std::tie(r.trace_bytes, r.trace_calls) = w->trace_size();  // the trace's section
    const std::vector<CoverageTuple> reached = w->coverage();
    r.coverage.insert(r.coverage.end(), reached.begin(), reached.end());
    std::sort(r.coverage.begin(), r.coverage.end());
    r.coverage.erase(std::unique(r.coverage.begin(), r.coverage.end()), r.coverage.end());
    const std::vector<Finding>& found = w->diagnostics().findings();
    r.findings.insert(r.findings.end(), found.begin(), found.end());
    for (std::string& line : w->unchecked()) r.unchecked.push_back(std::move(line));
    for (const HpRaceProbe& probe : w->hp_race_probes_found())
      r.hp_race_probes.push_back(HpRaceProbeListValue::format({probe}));
  }
  if (const char* why = file_view_refusal())
    r.unchecked.push_back(std::string("each run's own view of the files it writes (") + why +
                          "): runs see and change the real working directory and temporary directory");
  return r;
}

}  // namespace

void write_report_file() {
  // A fork server's worker: through the page it shares with the driver, in the binary form.
  if (delivers_reports() && deliver_report(checker::run_report_to_bytes(g_session.report))) return;
  // Program output and abort messages may hold any bytes: replace invalid UTF-8, never throw.
  const std::string text =
      checker::run_report_to_json(g_session.report).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
      "\n";
  const int fd = open_outside(options().report_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  for (std::size_t at = 0; fd >= 0 && at < text.size();) {
    const ssize_t k = write(fd, text.data() + at, text.size() - at);
    if (k <= 0) break;
    at += static_cast<std::size_t>(k);
  }
  if (fd >= 0) close(fd);
}

void write_report(bool completed) {
  if (g_session.report_written) return;
  g_session.report_written = true;
  if (options().report_file.empty()) {
    // Run directly, without the driver to say it: a check this run could not make.
    if (World* w = g_session.world.get())
      for (const std::string& line : w->unchecked())
        std::fprintf(stderr, "bsp-check: note: not checked: %s\n", line.c_str());
    return;
  }
  checker::RunReport r = sections_so_far(completed);
  if (g_session.world) g_session.finished_sections = r;
  r.findings.insert(r.findings.end(), g_session.outside_findings.begin(), g_session.outside_findings.end());
  g_session.report = std::move(r);
  write_report_file();
}

// A finding was printed during the run: the report so far (not completed), written now, so that
// a run killed from outside (SIGKILL, the out-of-memory killer) keeps in the JSON, SARIF and
// JUnit reports the findings it printed. Once per distinct finding, as they are printed; the
// report of the run's end replaces it (with the coverage, left out here).
// Written without an allocation whose size depends on what the findings say (their messages hold
// addresses): the program's heap, which a program that reads uninitialised memory sees, stays the
// same in a fork server's run and a plain one of the same seed. Hence a fixed-size buffer, a
// reused header, the binary form in either way the report travels, and the findings serialised
// where they are.
void write_report_so_far() {
  World* w = g_session.world.get();
  if (g_session.report_written || options().report_file.empty() || !w) return;
  static checker::RunReport head;  // its vectors keep their capacity from one finding to the next
  head.seed = options().run.seed;
  head.procs_available = options().run.procs;
  head.nprocs = std::max(g_session.finished_sections.nprocs, w->nprocs());
  head.supersteps = g_session.finished_sections.supersteps + w->completed_supersteps();
  head.switches = g_session.finished_sections.switches + w->switches();
  head.output_hash = g_session.finished_sections.output_hash;
  for (const Process& pr : w->processes()) {  // folded over the sections as sections_so_far does
    const std::uint64_t digest = pr.output.digest.value();
    const auto pid = static_cast<std::size_t>(pr.pid);
    if (pid < head.output_hash.size())
      head.output_hash[pid] = (head.output_hash[pid] ^ digest) * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
    else head.output_hash.push_back(digest);
  }
  if (g_session.section == 1) std::tie(head.trace_bytes, head.trace_calls) = w->trace_size();
  // Mapped, not allocated: the C library's malloc would serve it from the heap or from a mapping
  // depending on its history (its mmap threshold moves), which differs between the two ways.
  constexpr std::size_t kMaxBytes = std::size_t{1} << 20;  // beyond it, the end's report only
  void* m = mmap(nullptr, kMaxBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) return;
  char* buf = static_cast<char*>(m);
  const std::size_t n = checker::run_report_to_buffer(
      head, {&g_session.finished_sections.findings, &w->diagnostics().findings(), &g_session.outside_findings}, buf,
      kMaxBytes);
  if (n > 0 && !(delivers_reports() && deliver_report(std::string_view(buf, n)))) {
    const int fd = open_outside(options().report_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    for (std::size_t at = 0; fd >= 0 && at < n;) {
      const ssize_t k = write(fd, buf + at, n - at);
      if (k <= 0) break;
      at += static_cast<std::size_t>(k);
    }
    if (fd >= 0) close(fd);
  }
  munmap(m, kMaxBytes);
}

// A finding outside the SPMD part (before bsp_begin, after bsp_end): printed now, and in the
// report, which is written again if bsp_end already wrote it, so that every report format the
// driver makes from it (JSON, SARIF, JUnit) has it.
// The same finding again (a primitive in a loop after bsp_end) is counted, not printed: at_exit
// says how many repeats there were.
void report_outside_spmd(Finding f) {
  static std::set<std::string> seen;
  if (!seen.insert(f.rule + '\n' + f.message).second) {
    ++g_session.outside_repeats;
    return;
  }
  std::fputs(checker::render_finding_outside_spmd(f, repro_command()).c_str(), stderr);
  std::fflush(stderr);
  g_session.outside_findings.push_back(f);
  if (g_session.report_written && !options().report_file.empty()) {
    g_session.report.findings.push_back(f);
    write_report_file();
  }
}

}  // namespace bspcheck::rt::program
