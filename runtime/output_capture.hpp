// output_capture.hpp: attributes what the processes print to the process that printed it.
//
// All processes share the OS process's stdout and stderr. While a world runs, `stdout` and
// `stderr` are replaced by unbuffered stdio streams (fopencookie) and std::cout/cerr/clog by
// stream buffers that all hand their bytes to World::on_output, which knows the running process.
// Bytes written with write(2) directly to file descriptors 1 and 2 bypass this and are not
// attributed (documented limitation).
#pragma once

#include <cstdio>

namespace bspcheck::rt {

class World;

class OutputCapture {
 public:
  explicit OutputCapture(World& world);  // installs, and points world.real_out at the originals
  ~OutputCapture();                       // restores the original streams
  OutputCapture(const OutputCapture&) = delete;
  OutputCapture& operator=(const OutputCapture&) = delete;

 private:
  std::FILE* saved_[2];
  std::FILE* cookies_[2];
  void* saved_bufs_[3];  // std::streambuf* of cout, cerr, clog
};

}  // namespace bspcheck::rt
