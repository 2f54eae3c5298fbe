#include "runtime/executable/backtrace.hpp"

#include <boost/stacktrace.hpp>
#include <cstdint>
#include <string>

namespace bspcheck::rt {

void print_backtrace(std::FILE* out, int skip) {
  const boost::stacktrace::stacktrace trace(static_cast<std::size_t>(skip), 48);
  std::fputs("  backtrace:\n", out);
  int n = 0;
  for (const boost::stacktrace::frame& f : trace) {
    std::string name = f.name();
    if (name.empty()) name = "??";
    std::string where;
    if (const std::string file = f.source_file(); !file.empty())
      where = " at " + file + ":" + std::to_string(f.source_line());
    std::fprintf(out, "    #%d %p in %s%s\n", n++, f.address(), name.c_str(), where.c_str());
  }
  std::fflush(out);
}

bool call_source(const void* pc, std::string& file, int& line) {
  if (!pc) return false;
  // pc - 1: inside the call instruction, whose line is the call's (the return address may
  // already belong to the next line).
  const boost::stacktrace::frame f(
      reinterpret_cast<boost::stacktrace::frame::native_frame_ptr_t>(reinterpret_cast<std::uintptr_t>(pc) - 1));
  std::string source = f.source_file();
  if (source.empty()) return false;
  file = std::move(source);
  line = static_cast<int>(f.source_line());
  return line > 0;
}

}  // namespace bspcheck::rt
