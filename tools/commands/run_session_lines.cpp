// run_session_lines.cpp: the wording of a run session's decisions and closing lines.
#include "tools/commands/run_session_lines.hpp"

#include <cstdarg>
#include <cstdio>
#include <vector>

namespace bspcheck::cli {

namespace {

// printf into a string of its own length.
__attribute__((format(printf, 1, 2))) std::string format(const char* pattern, ...) {
  va_list args, again;
  va_start(args, pattern);
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, pattern, args);
  va_end(args);
  std::vector<char> text(n > 0 ? static_cast<std::size_t>(n) + 1 : 1);
  std::vsnprintf(text.data(), text.size(), pattern, again);
  va_end(again);
  return std::string(text.data(), text.size() - 1);
}

// Two decimals below ten seconds: a session of a hundred small runs reads "0.04 s", not "0.0 s".
int seconds_decimals(double seconds) { return seconds < 10 ? 2 : 1; }

unsigned long long ull(std::uint64_t n) { return static_cast<unsigned long long>(n); }

}  // namespace

RunShown how_run_is_shown(bool verbose, bool passed, bool has_new_findings, bool has_findings) {
  if (verbose || (!passed && (has_new_findings || !has_findings))) return RunShown::in_full;
  if (!passed) return RunShown::counted;
  if (has_new_findings) return RunShown::warnings;
  return RunShown::nothing;
}

std::string session_range(const std::string& procs_text, std::uint64_t first_seed, std::uint64_t seeds,
                          const Shard& shard) {
  char range[200];  // as long as it ever was: a very long list of p is cut here
  std::snprintf(range, sizeof range, "p = %s; seeds %llu..%llu%s%s", procs_text.c_str(), ull(first_seed),
                ull(first_seed + seeds - 1), shard.count > 1 ? "; shard " : "",
                shard.count > 1 ? shard.text().c_str() : "");
  return range;
}

std::string clean_line(const SessionCounts& n, const std::string& range, bool verbose, unsigned jobs,
                       std::size_t coverage_tuples) {
  std::string line = format("bsp-check: %llu run%s clean (%s) in %.*f s", ull(n.done), n.done == 1 ? "" : "s",
                            range.c_str(), seconds_decimals(n.seconds), n.seconds);
  if (verbose && n.seconds > 0)
    line += format(" (%.0f runs/s, -j %u; %zu coverage tuples)", static_cast<double>(n.done) / n.seconds, jobs,
                   coverage_tuples);
  if (n.with_warnings) line += format(", %llu with warnings", ull(n.with_warnings));
  return line + "\n";
}

std::string failed_line(const SessionCounts& n, const std::string& range, bool keep_going) {
  return format("bsp-check: %llu of %llu run%s FAILED (%s) in %.*f s%s\n", ull(n.failed), ull(n.done),
                n.done == 1 ? "" : "s", range.c_str(), seconds_decimals(n.seconds), n.seconds,
                !keep_going && n.done < n.planned ? "; stopped at the first failure (--keep-going runs all)" : "");
}

std::string interrupted_line(const SessionCounts& n, const std::string& signal) {
  return format("bsp-check: interrupted by %s after %llu of %llu runs (%llu failed) in %.*f s\n", signal.c_str(),
                ull(n.done), ull(n.planned), ull(n.failed), seconds_decimals(n.seconds), n.seconds);
}

}  // namespace bspcheck::cli
