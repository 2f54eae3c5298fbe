// debug_command.hpp: `bsp-check debug TRACE [-- GDB OPTIONS...]`: gdb on the replay of a trace,
// stopped where its first finding is raised (docs/debugging.md).
#pragma once

#include <string>
#include <vector>

namespace bspcheck::cli {

// args[0] is "debug". Returns gdb's exit status, or 2 for bad usage, a bad trace or no gdb.
int debug_command(const std::vector<std::string>& args, const char* version);

// The folder of bspcheck_gdb.py: installed beside the driver (PREFIX/share/bsp-check/gdb), or
// else the source tree the driver was built from.
std::string gdb_extension_dir();

}  // namespace bspcheck::cli
