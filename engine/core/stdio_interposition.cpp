// stdio_interposition.cpp: the C library calls that would change stdout or stderr, while the
// output capture (output_capture.hpp) stands in for them.
//
// During the SPMD part, stdout and stderr are the capture's streams: made with fopencookie, so no
// file descriptor is behind them, and one object shared by every process (each process's
// `stdout` variable is its own, but points at it). What a program may do to its stdout as a
// separate process would therefore either break (glibc's freopen crashes on a cookie stream,
// fileno says -1, so libstdc++'s unsynchronised std::cout writes to descriptor -1 and its output
// is lost) or reach every process (fclose, setvbuf with a buffer in the process's own globals).
// These calls are interposed here (the executable binds to the runtime library before the C
// library, as runtime/isolation/libc_state.cpp relies on) and, on a capture stream, do what the program
// means for the running process only:
//   freopen(path, mode, stdout)   the process's stdout becomes a file of its own (fopen)
//   fclose(stdout)                succeeds; the capture stays for the other processes
//   setvbuf/setbuf/...            succeed and change nothing: the capture is unbuffered, which
//                                 is how each process's bytes are attributed to it
//   fileno(stdout)                the descriptor the output really goes to (1 or 2)
//   std::ios_base::sync_with_stdio(false)   keeps std::cout on the capture (its only effect
//                                 would be speed and the order against printf)
// On any other stream, and outside the SPMD part, the C library's own functions run.
#include <dlfcn.h>

#include <cstdio>
#include <ios>

#include "engine/core/output_capture.hpp"
#include "runtime/base/interpose.hpp"

using bspcheck::rt::next_definition;

namespace {

using bspcheck::rt::OutputCapture;

// The running process's own variable for the capture stream s (per process with private globals;
// shared, as MulticoreBSP's threads share it, with shared globals).
std::FILE*& variable_of(int s) { return s == 0 ? stdout : stderr; }

std::FILE* reopen(const char* path, const char* mode, std::FILE* stream, const char* real_name) {
  const int s = OutputCapture::stream_of(stream);
  if (s < 0) {
    using Freopen = std::FILE* (*)(const char*, const char*, std::FILE*);
    static const auto real = next_definition<Freopen>(real_name);
    return real(path, mode, stream);
  }
  if (!path) return stream;  // a new mode for the capture: it takes every mode already
  std::FILE* own = std::fopen(path, mode);
  if (own && variable_of(s) == stream) variable_of(s) = own;
  return own;
}

}  // namespace

extern "C" {

std::FILE* freopen(const char* path, const char* mode, std::FILE* stream) {
  return reopen(path, mode, stream, "freopen");
}

std::FILE* freopen64(const char* path, const char* mode, std::FILE* stream) {
  return reopen(path, mode, stream, "freopen64");
}

int fclose(std::FILE* stream) {
  if (OutputCapture::stream_of(stream) >= 0) return std::fflush(stream);
  static const auto real = next_definition<int (*)(std::FILE*)>("fclose");
  return real(stream);
}

int setvbuf(std::FILE* stream, char* buf, int mode, std::size_t size) {
  if (OutputCapture::stream_of(stream) >= 0) return 0;
  static const auto real = next_definition<int (*)(std::FILE*, char*, int, std::size_t)>("setvbuf");
  return real(stream, buf, mode, size);
}

void setbuf(std::FILE* stream, char* buf) {
  if (OutputCapture::stream_of(stream) >= 0) return;
  static const auto real = next_definition<void (*)(std::FILE*, char*)>("setbuf");
  real(stream, buf);
}

void setbuffer(std::FILE* stream, char* buf, std::size_t size) {
  if (OutputCapture::stream_of(stream) >= 0) return;
  static const auto real = next_definition<void (*)(std::FILE*, char*, std::size_t)>("setbuffer");
  real(stream, buf, size);
}

void setlinebuf(std::FILE* stream) {
  if (OutputCapture::stream_of(stream) >= 0) return;
  static const auto real = next_definition<void (*)(std::FILE*)>("setlinebuf");
  real(stream);
}

int fileno(std::FILE* stream) {
  if (const int s = OutputCapture::stream_of(stream); s >= 0) return OutputCapture::original_descriptor(s);
  static const auto real = next_definition<int (*)(std::FILE*)>("fileno");
  return real(stream);
}

int fileno_unlocked(std::FILE* stream) {
  if (const int s = OutputCapture::stream_of(stream); s >= 0) return OutputCapture::original_descriptor(s);
  static const auto real = next_definition<int (*)(std::FILE*)>("fileno_unlocked");
  return real(stream);
}

}  // extern "C"

// libstdc++'s own, taken over while a capture is installed: the program's std::cout stays on the
// capture. Its answer is what the flag was, as the real one's (true until a call set it false).
bool std::ios_base::sync_with_stdio(bool sync) {
  using Real = bool (*)(bool);
  static const auto real = next_definition<Real>("_ZNSt8ios_base15sync_with_stdioEb");
  if (OutputCapture::stream_of(stdout) < 0 && OutputCapture::stream_of(stderr) < 0) return real(sync);
  static bool synced = true;
  const bool was = synced;
  synced = sync;
  return was;
}
