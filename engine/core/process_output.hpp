// process_output.hpp: what becomes of the bytes a process prints (engine/core/output_capture.hpp hands
// them over, attributed to the running process). Every byte goes into the process's digest, which
// the driver compares across seeds (schedule-divergence); in-process runs keep a copy
// (RunResult::output); a linked program echoes them to the real streams in whole lines, each
// with the --prefix, so that lines of different processes never mix.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

#include "runtime/base/hash.hpp"

namespace bspcheck::rt {

// Where the process is when it completes a line: what a prefix's %s and %c show.
struct LineContext {
  long superstep = 0;
  const char* call = nullptr;  // its last BSPlib call
  const char* file = nullptr;  // and that call's site, when bsp.h recorded it
  int line = 0;
};

// One process's output so far.
struct ProcessOutput {
  std::string partial[2];  // echoing: the unfinished line of stdout, stderr
  std::string captured;    // capturing: everything written
  Fnv1a64 digest;          // of everything written
};

class OutputLines {
 public:
  // prefix: "%p" stands for the process, "%s" for its superstep, "%c" for its last BSPlib call
  // and its site ("bsp_sync@prog.c:12"); capture: keep a copy; echo: write to the real streams.
  OutputLines(std::string prefix, bool capture, bool echo)
      : prefix_(std::move(prefix)),
        capture_(capture),
        echo_(echo),
        needs_context_(prefix_.find("%s") != std::string::npos || prefix_.find("%c") != std::string::npos) {}

  // Does the prefix show the process's superstep or call (else write's context is not read)?
  bool needs_context() const { return needs_context_; }
  // Bytes process pid wrote to stream (0 stdout, 1 stderr); complete lines go to out[stream].
  void write(ProcessOutput& o, int pid, const LineContext& where, int stream, const char* data, std::size_t n,
             std::FILE* const out[2]) const;
  // The process ends: an unfinished last line is shown too, with a newline unless `terminate` is
  // false (process 0 at bsp_end, which goes on writing the line itself).
  void flush(ProcessOutput& o, int pid, const LineContext& where, std::FILE* const out[2], bool terminate = true) const;

 private:
  void write_prefix(std::FILE* out, int pid, const LineContext& where) const;
  std::string prefix_;
  bool capture_, echo_, needs_context_;
};

}  // namespace bspcheck::rt
