#include "runtime/isolation/file_byte_watch.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "runtime/isolation/file_view.hpp"

namespace bspcheck::rt {

bool g_file_watch_on = false;

namespace {

// Fixed storage, no allocation: the program's heap stays as in a run that does not watch, so
// that the run is the one the session made (a program may depend on its heap's addresses).
char g_path[4096];
std::uint64_t g_offset = 0;
int g_state = 0;
bool g_answer = false;     // locating: print the answer at the end
int g_expected = 0;        // with g_expecting: the reference run's state of the byte
bool g_expecting = false;  // a kept trace's expectation
FileByteChange g_last;

int byte_state() {
  const int fd = open(g_path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return kFileAbsent;
  unsigned char b = 0;
  const ssize_t n = pread(fd, &b, 1, static_cast<off_t>(g_offset));
  close(fd);
  return n == 1 ? b : kFileEndsBefore;
}

void start(std::uint64_t offset) {
  g_offset = offset;
  g_state = byte_state();
  g_file_watch_on = true;
}

}  // namespace

void start_file_watch(const char* path, std::uint64_t offset) {
  if (std::snprintf(g_path, sizeof g_path, "%s", path) >= static_cast<int>(sizeof g_path)) return;
  g_answer = true;
  start(offset);
}

void start_file_expectation(const char* kept_name, std::uint64_t offset, int state) {
  // The kept name's root (cwd, tmp, tmpdir) as this run sees it: its view's roots, else the
  // directories themselves.
  const char* slash = std::strchr(kept_name, '/');
  if (!slash) return;
  const std::string_view root(kept_name, static_cast<std::size_t>(slash - kept_name));
  const char* root_path = nullptr;
  FileViewRoot roots[3];
  const int n = file_view_roots(roots, 3);
  for (int i = 0; i < n; ++i)
    if (root == roots[i].name) root_path = roots[i].path;
  char cwd[4096];
  if (!root_path && root == "cwd") root_path = getcwd(cwd, sizeof cwd);
  if (!root_path && root == "tmp") root_path = "/tmp";
  if (!root_path && root == "tmpdir") root_path = std::getenv("TMPDIR");
  if (!root_path || std::snprintf(g_path, sizeof g_path, "%s%s", root_path, slash) >= static_cast<int>(sizeof g_path))
    return;
  g_expecting = true;
  g_expected = state;
  start(offset);
}

void file_watch_look(int pid, int superstep, const char* call, const char* file, int line) {
  const int now = byte_state();
  if (now == g_state) return;
  g_state = now;
  g_last.seen = true;
  g_last.pid = pid;
  g_last.superstep = superstep;
  g_last.line = file ? line : 0;
  std::snprintf(g_last.call, sizeof g_last.call, "%s", call ? call : "bsp_begin");
  std::snprintf(g_last.file, sizeof g_last.file, "%s", file ? file : "");
}

bool finish_file_watch(int pid, int superstep, const char* call, const char* file, int line,
                       const FileByteChange** last, int* state) {
  if (!g_file_watch_on) return false;
  std::fflush(nullptr);
  file_watch_look(pid, superstep, call, file, line);
  g_file_watch_on = false;
  if (g_answer) {
    if (g_last.seen)
      std::fprintf(stderr, "%schanged %d %d %d %s %s\n", kFileWatchAnswer, g_last.pid, g_last.superstep, g_last.line,
                   g_last.call, g_last.file[0] ? g_last.file : "-");
    else std::fprintf(stderr, "%sunchanged\n", kFileWatchAnswer);
    std::fflush(stderr);
  }
  *last = &g_last;
  *state = g_state;
  return g_expecting && g_state != g_expected;
}

}  // namespace bspcheck::rt
