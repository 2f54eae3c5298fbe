// output_capture.hpp: attributes what the processes print to the process that printed it.
//
// All processes share the OS process's stdout and stderr. While a world runs, `stdout` and
// `stderr` are replaced by unbuffered stdio streams (fopencookie) and std::cout/cerr/clog by
// stream buffers that all hand their bytes to the capture's sink (World::on_output, which knows
// the running process).
// Bytes written with write(2) directly to file descriptors 1 and 2 bypass this and are not
// attributed (documented limitation).
#pragma once

#include <cstddef>
#include <cstdio>

namespace bspcheck::rt {

class OutputCapture {
 public:
  // Where the captured bytes go: stream 0 is stdout, 1 stderr. A plain function: it is called
  // from the C library's stream functions, which may run in any process's context.
  using Sink = void (*)(int stream, const char* data, std::size_t n);

  explicit OutputCapture(Sink sink);  // installs; one capture at a time
  ~OutputCapture();                   // restores the original streams
  // Points stdout, stderr and the std::cout family at the capture again: a process whose
  // private copy of these variables (copy relocations put them in the executable's data)
  // started from the program's initial image still has the originals.
  void install_in_running_process();
  // The stream that stdout (0) or stderr (1) was before the capture: where output really goes.
  std::FILE* original(int stream) const { return saved_[stream]; }
  // Which of the installed capture's streams f is: 0 (stdout), 1 (stderr), or -1 (not one, or no
  // capture). Its streams are no files and are shared by all processes, so the C library calls
  // that would change them are taken over (engine/core/stdio_interposition.cpp).
  static int stream_of(const std::FILE* f);
  // The file descriptor output of stream 0 or 1 really goes to (fileno of the original).
  static int original_descriptor(int stream);
  OutputCapture(const OutputCapture&) = delete;
  OutputCapture& operator=(const OutputCapture&) = delete;

 private:
  std::FILE* saved_[2];
  std::FILE* cookies_[2];
  void* saved_bufs_[3];  // std::streambuf* of cout, cerr, clog
};

}  // namespace bspcheck::rt
