#include "mpi/report/partial_report_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "checker/partial_report.hpp"

namespace bspcheck::mpi {

void PartialReportFile::open(std::string path, nlohmann::json header) {
  path_ = std::move(path);
  header_ = std::move(header);
  ::unlink(path_.c_str());  // an earlier job's, which merge would take for this one's
}

void PartialReportFile::add(const Finding& f) { append(checker::partial_report_finding(f)); }

void PartialReportFile::aborted(const std::string& message) { append(checker::partial_report_abort(message)); }

void PartialReportFile::append(const std::string& line) {
  if (!wanted() || failed_) return;
  std::string text = line;
  if (fd_ < 0) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    text = checker::partial_report_header(header_) + line;
  }
  // One write per line: a kill leaves whole lines, or a last one cut short that the reader drops.
  bool ok = fd_ >= 0;
  for (std::size_t at = 0; ok && at < text.size();) {
    const ssize_t k = ::write(fd_, text.data() + at, text.size() - at);
    ok = k > 0 || (k < 0 && errno == EINTR);
    at += k > 0 ? static_cast<std::size_t>(k) : 0;
  }
  if (ok) return;
  failed_ = true;
  std::fprintf(stderr, "bsp-check: warning: cannot write the partial report '%s': %s\n", path_.c_str(),
               std::strerror(errno));
}

void PartialReportFile::remove() {
  if (fd_ < 0) return;
  ::close(fd_);
  fd_ = -1;
  ::unlink(path_.c_str());
}

}  // namespace bspcheck::mpi
