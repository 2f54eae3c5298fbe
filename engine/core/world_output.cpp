// world_output.cpp: what the processes print: their lines (engine/core/process_output.hpp), the
// capture that hands them over (engine/core/output_capture.hpp), and a kept divergence's watched
// line (engine/core/expected_line_watch.hpp).
#include <unistd.h>

#include "bspcheck/rules.hpp"
#include "engine/core/foreign_contexts.hpp"
#include "engine/core/world.hpp"

namespace bspcheck::rt {

void World::on_output(int stream, const char* data, std::size_t n) {
  World* w = current_world_;
  if (!w) return;
  if (__builtin_expect(!on_world_thread(), false)) {
    // Not a process's output (a thread the program created, a forked child): straight to the
    // real stream. A forked child writes to the descriptor, so that what its copy of the
    // stream's buffer holds from the parent is not written twice.
    std::FILE* real = w->real_out[stream == 0 ? 0 : 1];
    if (in_forked_child()) {
      for (std::size_t done = 0; done < n;) {
        const ssize_t k = ::write(fileno(real), data + done, n - done);
        if (k <= 0) break;
        done += static_cast<std::size_t>(k);
      }
    } else {
      std::fwrite(data, 1, n, real);
      std::fflush(real);
    }
    return;
  }
  Process& me = w->self();
  w->output_lines_.write(me.output, me.pid, w->line_context(me), stream, data, n, w->real_out);
  std::string line;
  if (__builtin_expect(w->expected_line_.watching(me.pid, stream), false) && w->expected_line_.write(data, n, line))
    w->report_line_divergence(me, line);
}

void World::report_line_divergence(const Process& me, const std::string& line) {
  const ExpectedLine& e = expected_line_.expected();
  if (!options_.checks) return;
  std::string shown = line.size() > 200 ? line.substr(0, 200) + "..." : line;
  Finding f;
  f.rule = rule_id(Rule::schedule_divergence);
  f.message = "process " + std::to_string(me.pid) + " prints line " + std::to_string(e.line) + " of " +
              (e.stream == 0 ? "stdout" : "stderr") + " otherwise than the reference run: this run prints \"" + shown +
              "\", the reference run " + (e.reference_has_it ? "printed another line" : "printed no such line") +
              " (the location: its last BSPlib call before that line)";
  f.processes = {me.pid};
  f.superstep = local_ ? local_->superstep(me.pid) : superstep_;
  f.locations = {diag_.location(me.site, me.pid, me.call)};
  diag_.report(std::move(f));
}

std::unique_ptr<OutputCapture> World::capture_output() {
  auto capture = std::make_unique<OutputCapture>(&World::on_output);
  real_out[0] = capture->original(0);
  real_out[1] = capture->original(1);
  return capture;
}

void World::flush_partial_lines(Process& pr, bool terminate) {
  output_lines_.flush(pr.output, pr.pid, line_context(pr), real_out, terminate);
}

LineContext World::line_context(const Process& pr) const {
  LineContext where;
  if (!output_lines_.needs_context()) return where;
  // A process of cBSP or BSPk counts its own supersteps (engine/core/local_sync.hpp).
  where.superstep = local_ ? local_->superstep(pr.pid) : superstep_;
  where.call = pr.call;
  where.file = pr.site.file;
  where.line = pr.site.line;
  return where;
}

}  // namespace bspcheck::rt
