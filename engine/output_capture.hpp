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
  // Points stdout, stderr and the std::cout family at the capture again: a process whose
  // private copy of these variables (copy relocations put them in the executable's data)
  // started from the program's initial image still has the originals.
  void install_in_running_process();
  OutputCapture(const OutputCapture&) = delete;
  OutputCapture& operator=(const OutputCapture&) = delete;

 private:
  std::FILE* saved_[2];
  std::FILE* cookies_[2];
  void* saved_bufs_[3];  // std::streambuf* of cout, cerr, clog
};

}  // namespace bspcheck::rt
