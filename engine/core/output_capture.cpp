#include "engine/core/output_capture.hpp"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <streambuf>

namespace bspcheck::rt {

namespace {

OutputCapture::Sink g_sink = nullptr;  // the installed capture's
const OutputCapture* g_installed = nullptr;

void emit(int stream, const char* data, std::size_t n) {
  if (g_sink) g_sink(stream, data, n);
}

ssize_t cookie_write(void* cookie, const char* buf, std::size_t n) {
  emit(static_cast<int>(reinterpret_cast<std::intptr_t>(cookie)), buf, n);
  return static_cast<ssize_t>(n);
}

class ProcessStreambuf final : public std::streambuf {
 public:
  explicit ProcessStreambuf(int stream) : stream_(stream) {}

 protected:
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) {
      char ch = traits_type::to_char_type(c);
      emit(stream_, &ch, 1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    emit(stream_, s, static_cast<std::size_t>(n));
    return n;
  }

 private:
  int stream_;
};

ProcessStreambuf g_out_buf(0), g_err_buf(1);

}  // namespace

OutputCapture::OutputCapture(Sink sink) {
  g_sink = sink;
  std::fflush(stdout);
  std::fflush(stderr);
  saved_[0] = stdout;
  saved_[1] = stderr;
  cookie_io_functions_t io{};
  io.write = &cookie_write;
  for (int s = 0; s < 2; ++s) {
    cookies_[s] = fopencookie(reinterpret_cast<void*>(static_cast<std::intptr_t>(s)), "w", io);
    if (cookies_[s]) setvbuf(cookies_[s], nullptr, _IONBF, 0);
  }
  std::cout.flush();
  std::cerr.flush();
  saved_bufs_[0] = std::cout.rdbuf();
  saved_bufs_[1] = std::cerr.rdbuf();
  saved_bufs_[2] = std::clog.rdbuf();
  install_in_running_process();
  g_installed = this;
}

int OutputCapture::stream_of(const std::FILE* f) {
  if (!g_installed || !f) return -1;
  for (int s = 0; s < 2; ++s)
    if (f == g_installed->cookies_[s]) return s;
  return -1;
}

int OutputCapture::original_descriptor(int stream) {
  return g_installed && g_installed->saved_[stream] ? fileno(g_installed->saved_[stream]) : stream + 1;
}

void OutputCapture::install_in_running_process() {
  if (cookies_[0]) stdout = cookies_[0];
  if (cookies_[1]) stderr = cookies_[1];
  std::cout.rdbuf(&g_out_buf);
  std::cerr.rdbuf(&g_err_buf);
  std::clog.rdbuf(&g_err_buf);
}

OutputCapture::~OutputCapture() {
  g_installed = nullptr;  // its streams are closed below for real
  std::cout.rdbuf(static_cast<std::streambuf*>(saved_bufs_[0]));
  std::cerr.rdbuf(static_cast<std::streambuf*>(saved_bufs_[1]));
  std::clog.rdbuf(static_cast<std::streambuf*>(saved_bufs_[2]));
  stdout = saved_[0];
  stderr = saved_[1];
  for (std::FILE* c : cookies_)
    if (c) std::fclose(c);
  g_sink = nullptr;
  // What the processes printed sits in the C library's buffers of the real streams; a std::cout
  // that sync_with_stdio(false) made write to the descriptor itself would otherwise get ahead of
  // it with what process 0 prints after bsp_end.
  std::fflush(stdout);
  std::fflush(stderr);
}

}  // namespace bspcheck::rt
