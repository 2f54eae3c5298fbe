// atomic_file.hpp: a report file that is either absent, the previous version, or complete. It is
// written into a temporary file in the same folder (so that rename is atomic) and renamed over
// its name at the end: a crash or a kill while writing never leaves a truncated report.
#pragma once

#include <optional>
#include <string>

namespace bspcheck::cli {

class AtomicFile {
 public:
  // Creates the temporary file now, so that an unwritable path is refused before any run.
  explicit AtomicFile(std::string path);
  ~AtomicFile();  // removes the temporary file unless it was committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  bool ok() const { return fd_ >= 0; }
  const std::string& error() const { return error_; }  // why not, after a failure
  const std::string& path() const { return path_; }

  // Writes `text`, flushes it to the disk and renames it over path(); false (and error()) when
  // any step fails, leaving path() as it was.
  bool commit(const std::string& text);

 private:
  void fail(const std::string& step);
  std::string path_, temp_, error_;
  int fd_ = -1;
};

// The report files of a command (--json, --sarif, --junit), each opened before any work when its
// path is not empty, so that a typo does not cost a session.
struct ReportFiles {
  std::optional<AtomicFile> json, sarif, junit;
  // False after saying on stderr which file cannot be written.
  bool open(const std::string& json_path, const std::string& sarif_path, const std::string& junit_path);
  // Commits `text` into `file` when it is open; false after saying on stderr that writing failed.
  static bool commit(std::optional<AtomicFile>& file, const std::string& text);
};

}  // namespace bspcheck::cli
