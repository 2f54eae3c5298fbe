// diagnostics.hpp: the findings of one run and how they are rendered as text.
//
// The engine detects a violation and hands over structured facts (rule, processes, superstep,
// call sites, numbers); this file turns them into the compiler-style text users read:
//   bsp-check: error[bounds-put]: superstep 3: process 2 writes bytes 16..32 of a 16-byte area
//   on process 3
//     at put.c:14 (bsp_put, process 2)
//     rule: a put may not write past the end of the target's registered area (BSPlib 3.2.4 (3))
//     reproduce: bsp-check run -p 4 --seed 7 ./put
#pragma once

#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bspcheck/bspcheck.hpp"
#include "bspcheck/rules.hpp"
#include "checker/suppressions.hpp"
#include "runtime/base/site.hpp"

namespace bspcheck::checker {

class Diagnostics {
 public:
  // Where findings are printed as they happen (nullptr: keep quiet, e.g. in-process runs).
  void set_stream(std::FILE* out, std::string repro_command) {
    out_ = out;
    repro_ = std::move(repro_command);
  }

  // Which findings are kept (the rest are dropped and counted) and whether warnings fail a run.
  void configure(std::vector<std::string> disabled, Suppressions suppressions, bool werror) {
    disabled_ = std::move(disabled);
    suppressions_ = std::move(suppressions);
    werror_ = werror;
  }
  bool enabled(const std::string& rule) const;

  Location location(const rt::Site& site, int process, const char* call) const;
  // Records the finding (printing it when a stream is set); false when it is disabled or
  // suppressed, and so dropped.
  bool report(Finding f);
  bool printing() const { return out_ != nullptr; }
  // Called after a finding is printed and recorded (the runtime writes the run's report so far,
  // so that a run killed from outside keeps in its reports the findings it printed).
  void set_on_printed(std::function<void()> f) { on_printed_ = std::move(f); }

  // The findings recorded: of the same rule at the same locations, the first kKeptRepeats, and
  // beyond them those of the superstep that reached the number (a warning in a loop of a million
  // supersteps keeps a thousand, not a million, so that memory stays bounded; a superstep's
  // finding per process, at a million processes, is kept whole). print_repeat_summary says how
  // many there were.
  static constexpr std::size_t kKeptRepeats = 1000;
  const std::vector<Finding>& findings() const { return findings_; }
  // Findings that fail the run: errors, and with werror warnings too.
  std::size_t errors() const { return errors_; }
  std::size_t dropped() const { return dropped_; }
  // Prints how many repeats of already printed findings were not printed.
  void print_repeat_summary();

 private:
  std::vector<Finding> findings_;
  std::size_t errors_ = 0;
  std::size_t dropped_ = 0;
  std::vector<std::string> disabled_;
  Suppressions suppressions_;
  bool werror_ = false;
  std::FILE* out_ = nullptr;
  std::function<void()> on_printed_;
  std::string repro_;
  struct Repeats {
    std::size_t seen = 0;  // reported
    std::size_t kept = 0;  // of them in findings_
    int last_kept_superstep = -1;
  };
  std::map<std::string, Repeats> repeats_;  // key: rule and locations
};

}  // namespace bspcheck::checker
