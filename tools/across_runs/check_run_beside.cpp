#include "tools/across_runs/check_run_beside.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include "runtime/isolation/file_view.hpp"
#include "tools/launch/cores_available.hpp"
#include "tools/launch/temp_files.hpp"

namespace bspcheck::cli {

RunConfig check_run_config(const RunConfig& c) {
  RunConfig again = c;
  again.keep_trace = false;
  again.options.run.replay_file.clear();
  again.options.run.guide_file.clear();
  again.options.run.guide_log.clear();
  return again;
}

std::unique_ptr<CheckRunBeside> CheckRunBeside::start(const RunConfig& c, const std::string& program, int p,
                                                      std::uint64_t seed, StdinFeed& in, const std::string& own_trace) {
  const unsigned at_once = c.jobs ? c.jobs : cores_available();
  if (at_once < 2 || !in.shareable()) return nullptr;
  // The fallback forced (BSPCHECK_FILE_VIEW=refuse): the runs share the real directories.
  if (const char* view = std::getenv(rt::kFileViewEnvironment); view && std::strcmp(view, "private") != 0)
    return nullptr;
  std::unique_ptr<CheckRunBeside> beside(new CheckRunBeside);
  beside->trace_ = temp_name_of_length("again", own_trace.size());
  if (beside->trace_.empty()) return nullptr;
  if (!c.options.keep_files.empty()) {
    beside->files_ = temp_name_of_length("again", c.options.keep_files.size());
    if (beside->files_.empty()) return nullptr;
  }
  // The trace's name is taken now; the files' folder is made by the run if it writes a file.
  const int fd = open(beside->trace_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return nullptr;
  close(fd);
  beside->config_ = check_run_config(c);
  beside->config_.options.run.trace_file = beside->trace_;
  beside->config_.options.keep_files = beside->files_;
  // Beside the run, the check's run must not meet it in the real directories: it gets a view of
  // its own files or ends before the program's code runs, and the check then runs after the run.
  beside->config_.file_view_required = true;
  CheckRunBeside* b = beside.get();
  beside->config_.on_child_started = [b](pid_t pid, bool own_group) {
    const std::lock_guard<std::mutex> lock(b->child_mutex_);
    b->child_ = own_group ? -pid : pid;
    if (b->cancelled_) kill(b->child_, SIGKILL);  // cancelled before it started
  };
  beside->runner_ = std::thread([b, program, p, seed, &in] {
    b->outcome_ = run_once(b->config_, program, p, seed, in, false);
    {
      // Reaped: its pid may be another process's from now on (a cancel between the two kills
      // nothing worse than a group that is gone).
      const std::lock_guard<std::mutex> lock(b->child_mutex_);
      b->child_ = 0;
    }
    b->ran_ = !(b->outcome_.exit_status == rt::kFileViewRefusedStatus && !b->outcome_.reported);
  });
  return beside;
}

const RunOutcome* CheckRunBeside::outcome() {
  if (runner_.joinable()) runner_.join();
  return ran_ ? &outcome_ : nullptr;
}

void CheckRunBeside::cancel() {
  const std::lock_guard<std::mutex> lock(child_mutex_);
  if (cancelled_ || !runner_.joinable()) return;  // once, and not after its outcome was taken
  cancelled_ = true;
  if (child_ != 0) kill(child_, SIGKILL);
}

CheckRunBeside::~CheckRunBeside() {
  cancel();
  if (runner_.joinable()) runner_.join();
  std::remove(trace_.c_str());
  std::error_code ignored;
  if (!files_.empty()) std::filesystem::remove_all(files_, ignored);
}

}  // namespace bspcheck::cli
