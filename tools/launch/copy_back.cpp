#include "tools/launch/copy_back.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "tools/launch/same_contents.hpp"

namespace bspcheck::cli {

namespace fs = std::filesystem;

namespace {

bool after(const timespec& a, const timespec& b) {
  return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec > b.tv_nsec);
}

// Whether the user changed `path` (or, for a directory, anything in it) since the run began.
bool changed_since(const fs::path& path, const timespec& since) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) return false;
  if (after(st.st_ctim, since) || after(st.st_mtim, since)) return true;
  if (!S_ISDIR(st.st_mode)) return false;
  std::error_code e;
  for (fs::recursive_directory_iterator it(path, e), end; !e && it != end; it.increment(e))
    if (lstat(it->path().c_str(), &st) == 0 && (after(st.st_ctim, since) || after(st.st_mtim, since))) return true;
  return false;
}

// A regular file there (not a link to one) with the same bytes.
bool same_file_there(const fs::path& a, const fs::path& b) {
  std::error_code e;
  return fs::is_regular_file(fs::symlink_status(b, e)) && same_contents(a, b);
}

std::map<std::string, fs::path> read_roots(const fs::path& kept) {
  std::map<std::string, fs::path> roots;
  std::ifstream in(kept / "roots.txt");
  for (std::string line; std::getline(in, line);)
    if (const auto tab = line.find('\t'); tab != std::string::npos) roots[line.substr(0, tab)] = line.substr(tab + 1);
  return roots;
}

// One kept entry (a directory, file or link of the run) written at `target`.
void write_entry(const fs::directory_entry& entry, const fs::path& target, const timespec& since, CopyBack& result) {
  std::error_code e;
  const fs::file_status there = fs::symlink_status(target, e);
  if (entry.is_directory() && !entry.is_symlink()) {
    if (fs::is_directory(there)) return;
    if (fs::exists(there)) {
      result.conflicts.push_back(target.string());  // the run made a directory where the user has a file
      return;
    }
    if (fs::create_directory(target, e)) ++result.written;
    return;
  }
  if (fs::exists(there) && !fs::is_symlink(there) && entry.is_regular_file() && same_file_there(entry.path(), target))
    return;  // copied up by the run, unchanged (a file opened for writing and left as it was)
  if (fs::exists(there) && changed_since(target, since)) {
    result.conflicts.push_back(target.string());
    return;
  }
  if (fs::is_directory(there)) fs::remove_all(target, e);
  if (entry.is_symlink()) {
    fs::remove(target, e);
    fs::copy_symlink(entry.path(), target, e);
  } else {
    fs::copy_file(entry.path(), target, fs::copy_options::overwrite_existing, e);
    fs::permissions(target, fs::status(entry.path(), e).permissions(), e);
  }
  if (!e) ++result.written;
}

}  // namespace

timespec file_clock_now() {
  timespec t{};
  clock_gettime(CLOCK_REALTIME_COARSE, &t);
  return t;
}

CopyBack copy_back_run_files(const std::string& kept_dir, const timespec& since) {
  CopyBack result;
  const fs::path kept(kept_dir);
  const std::map<std::string, fs::path> roots = read_roots(kept);
  // Removals first: a file removed and made again is kept as made, not as removed.
  std::ifstream removed(kept / "removed.txt");
  for (std::string line; std::getline(removed, line);) {
    const auto slash = line.find('/');
    const auto root = slash == std::string::npos ? roots.end() : roots.find(line.substr(0, slash));
    if (root == roots.end()) continue;
    const fs::path target = root->second / line.substr(slash + 1);
    std::error_code e;
    if (!fs::exists(fs::symlink_status(target, e))) continue;
    if (changed_since(target, since)) {
      result.conflicts.push_back(target.string());
      continue;
    }
    if (fs::remove_all(target, e) > 0) ++result.removed;
  }
  for (const auto& [name, real] : roots) {
    const fs::path from = kept / name;
    std::error_code e;
    for (fs::recursive_directory_iterator it(from, e), end; !e && it != end; it.increment(e))
      write_entry(*it, real / fs::relative(it->path(), from), since, result);
  }
  return result;
}

bool kept_files_empty(const std::string& kept_dir) {
  const fs::path kept(kept_dir);
  std::error_code e;
  if (fs::exists(kept / "removed.txt", e)) return false;
  for (const auto& [name, real] : read_roots(kept))
    if (!fs::is_empty(kept / name, e) && !e) return false;
  return true;
}

}  // namespace bspcheck::cli
