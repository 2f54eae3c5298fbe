#include "runtime/isolation/file_view.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/mount.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/base/outside_files.hpp"
#include "runtime/base/runtime_file.hpp"

namespace bspcheck::rt {

namespace {

// The covered directories: the working directory, /tmp and $TMPDIR, without one that lies inside
// another (its overlay covers it already).
constexpr int kMaxCovered = 3;
// Plain data, set by the constructor below (priority 101 runs before this file's dynamic
// initialisers, which would undo what it set).
struct Covered {
  const char* name;  // how a run's kept files name it (kKeptRootNames)
  char path[PATH_MAX];
  int real;           // a detached copy of the directory as the session found it (open_tree)
  int session_upper;  // what the process the driver started wrote there before bsp_begin (-1: none)
};
Covered g_covered[kMaxCovered];
int g_count = 0;
char g_cwd[PATH_MAX];
// Every covered directory by its name, also one inside another's overlay (its path is then empty
// only where the candidate does not exist): how kept files name what a run wrote.
FileViewRoot g_roots[kMaxCovered];
char g_root_paths[kMaxCovered][PATH_MAX];
int g_root_count = 0;
bool g_private = false;
bool g_in_user_namespace = false;             // the overlay then keeps its marks in user.* attributes
char g_refusal[256];                          // why there is no view, when the driver asked for one
int g_run_upper[kMaxCovered] = {-1, -1, -1};  // a fork server's run: its upper directories, to read

void refuse(const char* what, int error) {
  std::snprintf(g_refusal, sizeof g_refusal, "%s%s%s", what, error ? ": " : "", error ? std::strerror(error) : "");
}

bool within(const char* inner, const char* outer) {
  const std::size_t n = std::strlen(outer);
  return std::strncmp(inner, outer, n) == 0 && (inner[n] == '\0' || inner[n] == '/' || (n == 1 && outer[0] == '/'));
}

// The covered directories, resolved; false (with the refusal said) where one cannot be covered.
bool choose_covered() {
  if (!getcwd(g_cwd, sizeof g_cwd)) return refuse("the working directory has no name", errno), false;
  const char* tmpdir = std::getenv("TMPDIR");
  const char* candidates[kMaxCovered] = {g_cwd, "/tmp", tmpdir && *tmpdir ? tmpdir : nullptr};
  char resolved[kMaxCovered][PATH_MAX];
  bool keep[kMaxCovered] = {};
  for (int i = 0; i < kMaxCovered; ++i) {
    struct stat st {};
    keep[i] =
        candidates[i] && realpath(candidates[i], resolved[i]) && stat(resolved[i], &st) == 0 && S_ISDIR(st.st_mode);
    if (keep[i] && std::strcmp(resolved[i], "/") == 0)
      return refuse("the working directory or the temporary directory is /, which no overlay can cover", 0), false;
    bool named = false;  // $TMPDIR naming /tmp, say, is one directory with one name
    for (int j = 0; keep[i] && j < g_root_count; ++j) named = named || std::strcmp(g_root_paths[j], resolved[i]) == 0;
    if (keep[i] && !named) {
      std::strcpy(g_root_paths[g_root_count], resolved[i]);
      g_roots[g_root_count] = FileViewRoot{kKeptRootNames[i], g_root_paths[g_root_count]};
      ++g_root_count;
    }
  }
  for (int i = 0; i < kMaxCovered; ++i) {
    for (int j = 0; keep[i] && j < kMaxCovered; ++j)
      if (j != i && keep[j] && within(resolved[i], resolved[j]) &&
          (std::strcmp(resolved[i], resolved[j]) != 0 || j < i))
        keep[i] = false;
    if (!keep[i]) continue;
    Covered& c = g_covered[g_count++];
    c.name = kKeptRootNames[i];
    std::strcpy(c.path, resolved[i]);
    c.real = c.session_upper = -1;
  }
  return true;
}

void write_file(const char* path, const char* text) {
  const int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  if (write(fd, text, std::strlen(text)) < 0) {
  }
  close(fd);
}

// A mount namespace of this process's own: a plain one where it may mount, else inside a user
// namespace of its own that maps its user and group to themselves.
bool enter_namespace() {
  if (unshare(CLONE_NEWNS) != 0) {
    const int plain_error = errno;
    const uid_t uid = geteuid();
    const gid_t gid = getegid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
      refuse("the kernel refused a mount namespace", plain_error == EPERM ? errno : plain_error);
      return false;
    }
    g_in_user_namespace = true;
    char map[64];
    write_file("/proc/self/setgroups", "deny");
    std::snprintf(map, sizeof map, "%u %u 1", uid, uid);
    write_file("/proc/self/uid_map", map);
    std::snprintf(map, sizeof map, "%u %u 1", gid, gid);
    write_file("/proc/self/gid_map", map);
  }
  // Nothing mounted here reaches the namespace the session started in.
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    return refuse("cannot make the mount namespace private", errno), false;
  return true;
}

// A new tmpfs, mounted nowhere (its descriptor only): the layers of one view.
int new_scratch() {
  const int fs = static_cast<int>(syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC));
  if (fs < 0) return -1;
  int m = -1;
  if (syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) == 0)
    m = static_cast<int>(syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, 0));
  close(fs);
  return m;
}

// Lays a fresh overlay over every covered directory: the real directory below, under what the
// session's process wrote (when over_session), under a new upper directory. Then steps into the
// working directory again, so that relative paths go through the overlay. On success the upper
// directories are kept in `uppers` (when given).
bool lay_overlays(bool over_session, int* uppers) {
  const int scratch = new_scratch();
  if (scratch < 0) return refuse("cannot make a tmpfs for the run's files", errno), false;
  bool ok = true;
  for (int i = 0; ok && i < g_count; ++i) {
    const Covered& c = g_covered[i];
    char upper[16], work[16];
    std::snprintf(upper, sizeof upper, "u%d", i);
    std::snprintf(work, sizeof work, "w%d", i);
    struct stat st {};
    ok = fstat(c.real, &st) == 0 && mkdirat(scratch, upper, 0700) == 0 && mkdirat(scratch, work, 0700) == 0;
    if (!ok) {
      refuse("cannot make the layers of the run's overlay", errno);
      break;
    }
    // The overlay's root takes the upper directory's owner and mode: the real directory's.
    if (fchownat(scratch, upper, st.st_uid, st.st_gid, 0) != 0) {
    }
    fchmodat(scratch, upper, st.st_mode & 07777, 0);
    char options[256];
    char lower[64];
    if (over_session && c.session_upper >= 0)
      std::snprintf(lower, sizeof lower, "/proc/self/fd/%d:/proc/self/fd/%d", c.session_upper, c.real);
    else std::snprintf(lower, sizeof lower, "/proc/self/fd/%d", c.real);
    std::snprintf(options, sizeof options, "lowerdir=%s,upperdir=/proc/self/fd/%d/%s,workdir=/proc/self/fd/%d/%s%s",
                  lower, scratch, upper, scratch, work, g_in_user_namespace ? ",userxattr" : "");
    ok = mount("bsp-check", c.path, "overlay", 0, options) == 0;
    if (!ok) refuse("the kernel refused an overlay over the run's directories", errno);
    if (ok && uppers) uppers[i] = out_of_the_way(openat(scratch, upper, O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (ok && !uppers) g_run_upper[i] = out_of_the_way(openat(scratch, upper, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  }
  // A run's overlays keep its tmpfs; the session's stays open too, mounted in its own detached
  // tree, so that the runs can lay its upper directories below theirs.
  if (uppers) out_of_the_way(scratch);
  else close(scratch);
  if (ok && chdir(g_cwd) != 0) ok = (refuse("cannot enter the working directory's overlay", errno), false);
  return ok;
}

bool make_session_view() {
  if (!choose_covered()) return false;
  const int root = out_of_the_way(open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
  const int cwd = out_of_the_way(open(".", O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (root < 0 || cwd < 0) return refuse("cannot open the working directory", errno), false;
  if (!enter_namespace()) return false;
  for (int i = 0; i < g_count; ++i) {
    g_covered[i].real = out_of_the_way(static_cast<int>(
        syscall(SYS_open_tree, AT_FDCWD, g_covered[i].path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE)));
    if (g_covered[i].real < 0) return refuse("cannot take a copy of the run's directories", errno), false;
  }
  // From here on the runtime's own files go to the session's file system, whatever happens next:
  // a failed overlay leaves some directories covered and some not.
  g_outside_root.store(root);
  g_outside_cwd.store(cwd);
  int uppers[kMaxCovered];
  if (!lay_overlays(false, uppers)) return false;
  for (int i = 0; i < g_count; ++i) g_covered[i].session_upper = uppers[i];
  return true;
}

// When the library loads, before the program's constructors: the process the driver started
// gets its view before any code of the program runs.
__attribute__((constructor(101))) void make_view_at_load() {
  const char* asked = std::getenv(kFileViewEnvironment);
  if (!asked) return;
  // Read before unsetenv, which may free or overwrite the text `asked` points at.
  const bool forced_refusal = std::strcmp(asked, "refuse") == 0;
  const bool probe = std::strcmp(asked, kFileViewProbe) == 0;
  const bool required = std::strcmp(asked, kFileViewRequire) == 0;
  unsetenv(kFileViewEnvironment);  // the program's environment is the one it would have outside
  if (forced_refusal) return refuse("refused on request (BSPCHECK_FILE_VIEW=refuse)", 0);
  g_private = make_session_view();
  if (required && !g_private) {
    std::fprintf(stderr, "bsp-check: the run needs a view of its own files: %s\n", g_refusal);
    _exit(kFileViewRefusedStatus);
  }
  if (probe) {
    // The driver asks whether the kernel grants this program's runs a view here
    // (tools/launch/file_view_probe.hpp): the answer on standard output, and none of the
    // program's code runs.
    char answer[sizeof g_refusal + 64];
    const int n =
        std::snprintf(answer, sizeof answer, "%s%s\n", kFileViewProbeAnswer, g_private ? "private" : g_refusal);
    _exit(n > 0 && write(STDOUT_FILENO, answer, static_cast<std::size_t>(n)) == n ? 0 : 1);
  }
}

}  // namespace

void begin_run_file_view() {
  if (!g_private) return;
  // A namespace of the child's own, in the server's (whose view it copies, and must not write).
  g_private = unshare(CLONE_NEWNS) == 0;
  if (!g_private) {
    refuse("cannot enter a mount namespace for the run", errno);
    std::fprintf(stderr, "bsp-check: error: %s\n", g_refusal);
    std::_Exit(2);  // its runs would write the server's view, which every later run sees
  }
  if (!lay_overlays(true, nullptr)) {
    std::fprintf(stderr, "bsp-check: error: %s\n", g_refusal);
    std::_Exit(2);
  }
}

bool file_view_written() {
  for (int i = 0; g_private && i < g_count; ++i) {
    const int fd = g_run_upper[i];
    if (fd < 0) continue;
    // Any entry but . and .. (a file, a directory, a whiteout for a removed file).
    alignas(8) char entries[512];
    lseek(fd, 0, SEEK_SET);
    for (long n; (n = syscall(SYS_getdents64, fd, entries, sizeof entries)) > 0;)
      for (long at = 0; at < n;) {
        const auto* d = reinterpret_cast<const dirent64*>(entries + at);
        if (std::strcmp(d->d_name, ".") != 0 && std::strcmp(d->d_name, "..") != 0) return true;
        at += d->d_reclen;
      }
  }
  return false;
}

const char* file_view_refusal() { return g_refusal[0] ? g_refusal : nullptr; }

bool file_view_private() { return g_private; }

int file_view_roots(FileViewRoot* out, int max) {
  int n = 0;
  for (int i = 0; g_private && i < g_root_count && n < max; ++i) out[n++] = g_roots[i];
  return n;
}

int file_view_layers(FileViewLayer* out, int max) {
  int n = 0;
  for (int i = 0; g_private && i < g_count && n < max; ++i)
    out[n++] = FileViewLayer{g_covered[i].name, g_covered[i].path, g_covered[i].session_upper, g_run_upper[i]};
  return n;
}

}  // namespace bspcheck::rt
