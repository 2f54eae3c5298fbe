#include "runtime/backtrace.hpp"

#include <boost/stacktrace.hpp>
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

}  // namespace bspcheck::rt
