// command_line.hpp: this OS process's command line, as the kernel keeps it. A program in the
// bsp_begin style never hands its argv to the library, yet a rank's record (the engine's program
// mode keeps main's arguments) and the job's report (what reproduces the job) both name them.
#pragma once

#include <string>
#include <vector>

namespace bspcheck::mpi {

// The words of /proc/self/cmdline: the program as it was started, then its arguments (empty
// where /proc is not mounted).
std::vector<std::string> command_line();

}  // namespace bspcheck::mpi
