#include "tools/reports/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <utility>

namespace bspcheck::cli {

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  if (path_.empty()) {
    error_ = "an empty file name";
    return;
  }
  if (std::filesystem::is_directory(path_, ec)) {
    error_ = "it is a directory";
    return;
  }
  if (std::filesystem::exists(path_, ec) && !std::filesystem::is_regular_file(path_, ec)) {
    // /dev/stdout, a FIFO: nothing to rename over; written directly.
    fd_ = open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) error_ = std::strerror(errno);
    return;
  }
  const std::filesystem::path p(path_);
  std::string dir = p.parent_path().string();
  if (dir.empty()) dir = ".";
  // A dot-file next to the report: same file system, and hidden from a glob of reports.
  std::string name = dir + "/." + p.filename().string() + ".tmp-XXXXXX";
  // Close-on-exec: the program under test must not inherit the driver's report files.
  fd_ = mkostemp(name.data(), O_CLOEXEC);
  if (fd_ < 0) {
    error_ = std::strerror(errno);
    return;
  }
  temp_ = name;
  // mkostemp makes 0600; a report is an ordinary file (0666 less the umask).
  const mode_t mask = umask(0);
  umask(mask);
  fchmod(fd_, 0666 & ~mask);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) close(fd_);
  if (!temp_.empty()) unlink(temp_.c_str());
}

void AtomicFile::fail(const std::string& step) { error_ = step + ": " + std::strerror(errno); }

bool AtomicFile::commit(const std::string& text) {
  if (fd_ < 0) return false;
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      fail("write");
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  if (temp_.empty()) {  // written directly (see the constructor)
    close(fd_);
    fd_ = -1;
    return true;
  }
  if (fsync(fd_) != 0 && errno != EINVAL) {
    fail("fsync");
    return false;
  }
  close(fd_);
  fd_ = -1;
  if (rename(temp_.c_str(), path_.c_str()) != 0) {
    fail("rename");
    return false;
  }
  temp_.clear();
  return true;
}

bool ReportFiles::open(const std::string& json_path, const std::string& sarif_path, const std::string& junit_path) {
  for (auto [file, out] :
       {std::pair{&json_path, &json}, std::pair{&sarif_path, &sarif}, std::pair{&junit_path, &junit}}) {
    if (file->empty()) continue;
    out->emplace(*file);
    if (!(*out)->ok()) {
      std::cerr << "bsp-check: error: cannot write " << *file << ": " << (*out)->error() << "\n";
      return false;
    }
  }
  return true;
}

bool ReportFiles::commit(std::optional<AtomicFile>& file, const std::string& text) {
  if (!file || file->commit(text)) return true;
  std::cerr << "bsp-check: error: writing " << file->path() << " failed: " << file->error() << "\n";
  return false;
}

}  // namespace bspcheck::cli
