#include "runtime/isolation/file_byte_watch.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace bspcheck::rt {

bool g_file_watch_on = false;

namespace {

// Fixed storage, no allocation: the program's heap stays as in a run that does not watch, so
// that the run is the one the session made (a program may depend on its heap's addresses).
char g_path[4096];
std::uint64_t g_offset = 0;
int g_state = 0;  // the byte (0..255), kShort (the file ends before it), kAbsent (no such file)
constexpr int kShort = -1, kAbsent = -2;

struct Change {
  bool seen = false;
  int pid = -1, superstep = 0, line = 0;
  char call[64] = {};
  char file[1024] = {};
} g_last;

int byte_state() {
  const int fd = open(g_path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return kAbsent;
  unsigned char b = 0;
  const ssize_t n = pread(fd, &b, 1, static_cast<off_t>(g_offset));
  close(fd);
  return n == 1 ? b : kShort;
}

}  // namespace

void start_file_watch(const char* path, std::uint64_t offset) {
  if (std::strlen(path) >= sizeof g_path) return;  // no path so long reaches here (options refuse ':' only)
  std::strcpy(g_path, path);
  g_offset = offset;
  g_state = byte_state();
  g_file_watch_on = true;
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
  std::snprintf(g_last.file, sizeof g_last.file, "%s", file ? file : "-");
}

void finish_file_watch(int pid, int superstep, const char* call, const char* file, int line) {
  if (!g_file_watch_on) return;
  std::fflush(nullptr);
  file_watch_look(pid, superstep, call, file, line);
  g_file_watch_on = false;
  if (g_last.seen)
    std::fprintf(stderr, "%schanged %d %d %d %s %s\n", kFileWatchAnswer, g_last.pid, g_last.superstep, g_last.line,
                 g_last.call, g_last.file);
  else std::fprintf(stderr, "%sunchanged\n", kFileWatchAnswer);
  std::fflush(stderr);
}

}  // namespace bspcheck::rt
