#include "runtime/isolation/kept_files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "runtime/base/outside_files.hpp"
#include "runtime/isolation/file_view.hpp"

namespace bspcheck::rt {

namespace {

// Calls f(name) for each entry of the directory open at `dir` but . and ..
template <class F>
void each_entry(int dir, F&& f) {
  alignas(8) char entries[4096];
  lseek(dir, 0, SEEK_SET);
  for (long n; (n = syscall(SYS_getdents64, dir, entries, sizeof entries)) > 0;)
    for (long at = 0; at < n;) {
      const auto* d = reinterpret_cast<const dirent64*>(entries + at);
      at += d->d_reclen;
      if (std::strcmp(d->d_name, ".") != 0 && std::strcmp(d->d_name, "..") != 0) f(d->d_name);
    }
}

int open_dir(int at, const char* name) { return openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC); }

// Removes `name` in `parent`, a directory with all it holds.
void remove_entry(int parent, const char* name) {
  if (unlinkat(parent, name, 0) == 0 || (errno != EISDIR && errno != EPERM)) return;
  const int dir = open_dir(parent, name);
  if (dir < 0) return;
  // Passes until a pass removes nothing: a listing may skip entries removed under it.
  for (bool removed = true; removed;) {
    removed = false;
    each_entry(dir, [&](const char* entry) {
      remove_entry(dir, entry);
      removed = true;
    });
  }
  close(dir);
  unlinkat(parent, name, AT_REMOVEDIR);
}

void copy_file(int from_dir, const char* name, int to_dir, mode_t mode) {
  const int in = openat(from_dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (in < 0) return;
  unlinkat(to_dir, name, 0);  // a symbolic link or another kind of entry of an earlier layer
  const int out = openat(to_dir, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode & 07777);
  char buffer[16384];
  for (ssize_t n; out >= 0 && (n = read(in, buffer, sizeof buffer)) > 0;)
    if (write(out, buffer, static_cast<std::size_t>(n)) != n) break;
  if (out >= 0) close(out);
  close(in);
}

// The run's removals, one line each, into removed.txt (opened at the first); and the covered
// directories, to name a path from the innermost one that holds it.
struct Removals {
  int kept;  // the run's directory in DIR
  int fd = -1;
  FileViewRoot roots[3];
  int root_count = 0;
  // The covered directory whose real path is `path`, or nullptr.
  const FileViewRoot* root_at(const char* path) const {
    for (int i = 0; i < root_count; ++i)
      if (std::strcmp(roots[i].path, path) == 0) return &roots[i];
    return nullptr;
  }
  void add(const char* root, const char* path) {
    if (fd < 0) fd = openat(kept, "removed.txt", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd >= 0) dprintf(fd, "%s/%s\n", root, path);
  }
};

// Copies one layer's directory `from` (`real`, path `rel` below the covered directory `root`) over
// `to`: an overlay's upper directory holds the files written, the directories they lie in, and a
// character device 0/0 (a whiteout) for each entry removed. A covered directory inside another
// (the working directory under /tmp) goes to its own name's folder.
void copy_layer(int from, int to, const char* real, const char* root, const char* rel, Removals& removals) {
  each_entry(from, [&](const char* name) {
    char path[PATH_MAX], real_path[PATH_MAX];
    std::snprintf(path, sizeof path, "%s%s%s", rel, *rel ? "/" : "", name);
    std::snprintf(real_path, sizeof real_path, "%s%s%s", real, std::strcmp(real, "/") ? "/" : "", name);
    struct stat st {};
    if (fstatat(from, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return;
    if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(0, 0)) {
      remove_entry(to, name);  // an earlier layer's file, if any
      removals.add(root, path);
    } else if (S_ISDIR(st.st_mode)) {
      struct stat there {};
      if (fstatat(to, name, &there, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(there.st_mode)) remove_entry(to, name);
      const FileViewRoot* inner = removals.root_at(real_path);
      int sub_to;
      if (inner) {
        mkdirat(removals.kept, inner->name, 0777);
        sub_to = open_dir(removals.kept, inner->name);
      } else {
        mkdirat(to, name, (st.st_mode & 07777) | 0700);
        sub_to = open_dir(to, name);
      }
      const int sub_from = open_dir(from, name);
      if (sub_from >= 0 && sub_to >= 0)
        copy_layer(sub_from, sub_to, real_path, inner ? inner->name : root, inner ? "" : path, removals);
      if (sub_from >= 0) close(sub_from);
      if (sub_to >= 0) close(sub_to);
    } else if (S_ISREG(st.st_mode)) {
      copy_file(from, name, to, st.st_mode);
    } else if (S_ISLNK(st.st_mode)) {
      char target[PATH_MAX];
      const ssize_t n = readlinkat(from, name, target, sizeof target - 1);
      if (n < 0) return;
      target[n] = '\0';
      remove_entry(to, name);
      if (symlinkat(target, to, name) != 0) {
      }
    }
  });
}

// DIR in the session's file system, made where missing (mkdir -p), as a directory descriptor.
int make_outside_dir(const char* dir) {
  int at = open_outside(dir[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
  char part[PATH_MAX];
  for (const char* c = dir; at >= 0 && *c;) {
    while (*c == '/') ++c;
    std::size_t n = 0;
    while (c[n] && c[n] != '/') ++n;
    if (n == 0) break;
    if (n >= sizeof part) return close(at), -1;
    std::memcpy(part, c, n);
    part[n] = '\0';
    c += n;
    mkdirat(at, part, 0777);
    const int next = openat(at, part, O_PATH | O_DIRECTORY | O_CLOEXEC);
    close(at);
    at = next;
  }
  return at;
}

// Whether a layer holds any entry: a run that wrote nothing keeps nothing, at the cost of a listing.
bool any_entry(int upper) {
  const int dir = upper >= 0 ? open_dir(upper, ".") : -1;
  if (dir < 0) return false;
  bool found = false;
  each_entry(dir, [&](const char*) { found = true; });
  close(dir);
  return found;
}

}  // namespace

void keep_run_files(const char* dir, int procs, std::uint64_t seed) {
  FileViewLayer layers[3];
  const int count = file_view_layers(layers, 3);
  if (count == 0 || !dir || !*dir) return;
  bool written = false;
  for (int i = 0; i < count && !written; ++i)
    written = any_entry(layers[i].session_upper) || any_entry(layers[i].run_upper);
  if (!written) return;
  const int base = make_outside_dir(dir);
  if (base < 0) {
    std::fprintf(stderr, "bsp-check: warning: cannot keep the run's files in %s: %s\n", dir, std::strerror(errno));
    return;
  }
  char name[64];
  std::snprintf(name, sizeof name, "p%d-s%llu", procs, static_cast<unsigned long long>(seed));
  remove_entry(base, name);
  mkdirat(base, name, 0777);
  const int kept = open_dir(base, name);
  close(base);
  if (kept < 0) return;
  Removals removals{};
  removals.kept = kept;
  removals.root_count = file_view_roots(removals.roots, 3);
  const int roots = openat(kept, "roots.txt", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  for (int i = 0; i < removals.root_count; ++i) {
    if (roots >= 0) dprintf(roots, "%s\t%s\n", removals.roots[i].name, removals.roots[i].path);
    mkdirat(kept, removals.roots[i].name, 0777);
  }
  for (int i = 0; i < count; ++i) {
    const int to = open_dir(kept, layers[i].name);
    // The started process's layer first (a fork server's main before bsp_begin), the run's over it.
    for (const int upper : {layers[i].session_upper, layers[i].run_upper}) {
      const int from = upper >= 0 ? open_dir(upper, ".") : -1;
      if (from >= 0 && to >= 0) copy_layer(from, to, layers[i].path, layers[i].name, "", removals);
      if (from >= 0) close(from);
    }
    if (to >= 0) close(to);
  }
  if (roots >= 0) close(roots);
  if (removals.fd >= 0) close(removals.fd);
  close(kept);
}

}  // namespace bspcheck::rt
