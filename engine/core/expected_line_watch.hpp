// expected_line_watch.hpp: the replay of a kept schedule-divergence knows the first line where the
// failing run prints otherwise than the reference run (Options::expected_line). It watches that
// one line of that one process as it is written, so that the divergence is raised at the write
// itself, in the process, superstep and call stack that print it: a debugger then stops there
// (bsp-check debug), rather than at the end of the run where the whole outputs are compared.
#pragma once

#include <cstddef>
#include <string>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::rt {

class ExpectedLineWatch {
 public:
  explicit ExpectedLineWatch(const ExpectedLine& expected) : expected_(expected) {}

  bool watching(int pid, int stream) const { return expected_.process == pid && expected_.stream == stream && !done_; }
  // Bytes process pid wrote to stream (watching(pid, stream) is true): true when they complete the
  // watched line and it differs from the reference's; `line` is then its text.
  bool write(const char* data, std::size_t n, std::string& line);
  // Has the watched line been written and found different?
  bool diverged() const { return diverged_; }
  const ExpectedLine& expected() const { return expected_; }

 private:
  ExpectedLine expected_;
  long completed_ = 0;   // lines of the watched stream completed so far
  std::string current_;  // the watched line so far, once the lines before it are complete
  bool done_ = false, diverged_ = false;
};

}  // namespace bspcheck::rt
