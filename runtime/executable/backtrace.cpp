#include "runtime/executable/backtrace.hpp"

#include <execinfo.h>

#include <string>
#include <vector>

#include "runtime/executable/symbolise.hpp"

namespace bspcheck::rt {

void print_backtrace(std::FILE* out, int skip) {
  void* addresses[64];
  const int n = ::backtrace(addresses, 64);
  std::fputs("  backtrace:\n", out);
  int shown = 0;
  std::vector<StackFrame> frames;
  for (int k = skip + 1; k < n && shown < 48; ++k) {  // + 1: this function's own frame
    frames.clear();
    symbolise(reinterpret_cast<std::uintptr_t>(addresses[k]), frames);
    if (frames.empty()) frames.push_back({});
    for (const StackFrame& f : frames) {  // an address's inlined frames share its number
      const std::string where = f.file.empty() ? "" : " at " + f.file + ":" + std::to_string(f.line);
      std::fprintf(out, "    #%d %p in %s%s\n", shown, addresses[k], f.function.empty() ? "??" : f.function.c_str(),
                   where.c_str());
    }
    ++shown;
  }
  std::fflush(out);
}

}  // namespace bspcheck::rt
