#include "mpi/report/run_report.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "runtime/options/option_values.hpp"

namespace bspcheck::mpi {

namespace {

std::string findings_text(const std::vector<Finding>& findings) {
  nlohmann::json j = nlohmann::json::array();
  for (const Finding& f : findings) j.push_back(checker::finding_to_json(f));
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

void RunReportFile::open(std::string path, int pid, std::vector<std::string> command) {
  path_ = std::move(path);
  command_ = std::move(command);
  // As the engine's report=: an unwritable path is refused before the run, not after it.
  if (!path_.empty() && pid == 0) rt::WritablePathValue::parse("report", path_);
}

bool RunReportFile::gather_and_write(MPI_Comm comm, int pid, const std::vector<Finding>& mine,
                                     checker::RunReport job) const {
  if (!wanted()) return false;
  const std::string text = findings_text(mine);
  int size = static_cast<int>(text.size()), ranks = 0;
  MPI_Comm_size(comm, &ranks);
  std::vector<int> sizes(pid == 0 ? ranks : 0), offsets(sizes.size());
  MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, comm);
  std::string all;
  if (pid == 0) {
    int total = 0;
    for (int r = 0; r < ranks; ++r) offsets[r] = std::exchange(total, total + sizes[r]);
    all.resize(static_cast<std::size_t>(total));
  }
  MPI_Gatherv(text.data(), size, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR, 0, comm);
  int written = 0;
  if (pid == 0) written = write_gathered(all, sizes, offsets, std::move(job));
  // The ranks keep their partial reports unless the whole one was written.
  MPI_Bcast(&written, 1, MPI_INT, 0, comm);
  return written != 0;
}

bool RunReportFile::write_gathered(const std::string& all, const std::vector<int>& sizes,
                                   const std::vector<int>& offsets, checker::RunReport job) const {
  const int ranks = static_cast<int>(sizes.size());
  std::vector<int> from;
  for (int r = 0; r < ranks; ++r) {
    from.push_back(r);
    const nlohmann::json j = nlohmann::json::parse(all.substr(offsets[r], sizes[r]), nullptr, false);
    if (j.is_array())
      for (const nlohmann::json& f : j) job.findings.push_back(checker::finding_from_json(f));
  }
  // In the order the run met them (a superstep's before the next's), rank by rank within one.
  std::stable_sort(job.findings.begin(), job.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.superstep < b.superstep; });
  return write(job, from);
}

void RunReportFile::write_alone(int pid, const std::vector<Finding>& mine, checker::RunReport job) const {
  if (!wanted()) return;
  job.findings = mine;
  write(job, {pid});
}

nlohmann::json RunReportFile::named(const checker::RunReport& job, const std::vector<int>& from_ranks) const {
  nlohmann::json j = checker::run_report_to_json(job);
  j["backend"] = "mpi";
  j["program"] = command_.empty() ? "" : command_[0];
  j["args"] =
      command_.size() > 1 ? std::vector<std::string>(command_.begin() + 1, command_.end()) : std::vector<std::string>{};
  j["ranks"] = job.procs_available;
  j["from_ranks"] = from_ranks;
  char id[17];
  std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(job_));
  j["job"] = id;
  return j;
}

bool RunReportFile::write(const checker::RunReport& job, const std::vector<int>& from_ranks) const {
  const nlohmann::json j = named(job, from_ranks);
  const std::string text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  // Whole or not at all: a reader never sees half a report, even of a job killed as it writes.
  const std::string temp = path_ + ".part" + std::to_string(getpid());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  bool ok = fd >= 0;
  for (std::size_t at = 0; ok && at < text.size();) {
    const ssize_t k = ::write(fd, text.data() + at, text.size() - at);
    ok = k > 0;
    at += ok ? static_cast<std::size_t>(k) : 0;
  }
  if (fd >= 0) ok = ::close(fd) == 0 && ok;
  if (ok && std::rename(temp.c_str(), path_.c_str()) == 0) return true;
  std::fprintf(stderr, "bsp-check: error: cannot write the report '%s': %s\n", path_.c_str(), std::strerror(errno));
  ::unlink(temp.c_str());
  return false;
}

}  // namespace bspcheck::mpi
