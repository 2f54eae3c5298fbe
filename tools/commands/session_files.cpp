#include "tools/commands/session_files.hpp"

#include <cstdio>
#include <filesystem>

#include "tools/across_runs/file_divergence.hpp"
#include "tools/launch/copy_back.hpp"

namespace bspcheck::cli {

// The first failing run, run again to record it, keeps its files too: in --keep-files DIR, else in
// <trace dir>/<program>-files/. The directory is named when the run wrote anything, else removed.
std::string failing_files_dir(const RunConfig& c, const std::string& base, bool files_temporary) {
  return c.options.keep_files.empty() || files_temporary
             ? (std::filesystem::path(c.trace_dir) / (base + "-files")).string()
             : c.options.keep_files;
}
void name_failing_files(const RunConfig& c, const std::string& dir, int p, std::uint64_t seed, bool files_temporary) {
  const std::string run =
      (std::filesystem::path(dir) / ("p" + std::to_string(p) + "-s" + std::to_string(seed))).string();
  std::error_code ignored;
  if (!std::filesystem::exists(run, ignored)) {
    if (c.options.keep_files.empty() || files_temporary) std::filesystem::remove(dir, ignored);  // when empty
    return;
  }
  if (!kept_files_empty(run)) {
    std::fprintf(stderr, "  files: %s/ (what the failing run wrote: docs/semantics.md)\n", run.c_str());
    return;
  }
  std::filesystem::remove_all(run, ignored);
  if (c.options.keep_files.empty() || files_temporary) std::filesystem::remove(dir, ignored);  // when empty
}

// files_temporary: c.options.keep_files is the session's own folder, where each run keeps its files
// to be compared across seeds (the user gave no --keep-files).
// schedule-divergence of the files: a clean run's kept files against those of its p's first clean
// run (tools/across_runs/file_divergence.hpp). A run's files are removed once compared (but the
// reference's) when the folder is the session's own.
std::optional<Finding> compare_files(const RunConfig& c, const std::string& path, int p, std::uint64_t seed,
                                     std::map<int, std::uint64_t>& reference, bool files_temporary, StdinFeed& in,
                                     ExpectedFileByte* expected) {
  const auto [known, first] = reference.emplace(p, seed);
  if (first) return std::nullopt;
  const std::string mine = kept_run_dir(c.options.keep_files, p, seed);
  std::optional<FileDifference> differs =
      first_file_difference(kept_run_dir(c.options.keep_files, p, known->second), mine,
                            "seed " + std::to_string(known->second), "seed " + std::to_string(seed));
  std::error_code ignored;
  if (files_temporary) std::filesystem::remove_all(mine, ignored);
  if (!differs) return std::nullopt;
  *expected = differs->reference;
  return file_divergence_finding(c, path, p, known->second, seed, *differs, in);
}

}  // namespace bspcheck::cli
