#include "runtime/executable/symbolise.hpp"

#include <backtrace.h>
#include <dlfcn.h>

#include <cstring>
#include <sstream>

#include "runtime/base/symbol_names.hpp"

namespace bspcheck::rt {

namespace {

backtrace_state* debug_info() {
  // Created once, on first use (a report, or the first call without a bsp.h site): it reads the
  // program's DWARF lazily. Errors (no debug information) leave frames without a file.
  static backtrace_state* state = backtrace_create_state(
      nullptr, 0, [](void*, const char*, int) {}, nullptr);
  return state;
}

// The frames of one return address, inline frames expanded, innermost first.
}  // namespace

void symbolise(std::uintptr_t return_address, std::vector<StackFrame>& out) {
  const std::uintptr_t pc = return_address - 1;  // inside the call instruction: the call's line
  const std::size_t before = out.size();
  backtrace_pcinfo(
      debug_info(), pc,
      [](void* data, std::uintptr_t, const char* file, int line, const char* function) -> int {
        auto* frames = static_cast<std::vector<StackFrame>*>(data);
        frames->push_back({demangled(function), file ? file : "", file ? line : 0});
        return 0;
      },
      [](void*, const char*, int) {}, &out);
  // Without debug information libbacktrace still reports one frame, with neither file nor name.
  if (out.size() == before + 1 && out.back().file.empty() && out.back().function.empty()) out.pop_back();
  if (out.size() != before) return;
  // No line information: the symbol, if the object exports one.
  StackFrame f;
  backtrace_syminfo(
      debug_info(), pc,
      [](void* data, std::uintptr_t, const char* symbol, std::uintptr_t, std::uintptr_t) {
        static_cast<StackFrame*>(data)->function = demangled(symbol);
      },
      [](void*, const char*, int) {}, &f);
  Dl_info info;  // libbacktrace reads the static symbol table; a library may only have dynamic ones
  if (f.function.empty() && dladdr(reinterpret_cast<void*>(pc), &info)) {
    if (info.dli_sname) f.function = demangled(info.dli_sname);
    else if (info.dli_fname && *info.dli_fname) {  // a local symbol of a stripped library: name the library
      const char* slash = std::strrchr(info.dli_fname, '/');
      f.function = std::string("?? in ") + (slash ? slash + 1 : info.dli_fname);
    }
  }
  out.push_back(std::move(f));
}

bool call_source(const void* pc, std::string& file, int& line) {
  if (!pc) return false;
  std::vector<StackFrame> frames;
  symbolise(reinterpret_cast<std::uintptr_t>(pc), frames);
  // The innermost frame is the call itself (an inlined callee's frames come before their caller's).
  if (frames.empty() || frames.front().file.empty() || frames.front().line <= 0) return false;
  file = frames.front().file;
  line = frames.front().line;
  return true;
}

std::string describe_address(const void* pc) {
  Dl_info info;
  if (!pc || !dladdr(pc, &info) || !info.dli_fname) return "";
  std::ostringstream s;
  s << (info.dli_sname ? info.dli_sname : "?") << " in " << info.dli_fname << " +0x" << std::hex
    << (reinterpret_cast<std::uintptr_t>(pc) - reinterpret_cast<std::uintptr_t>(info.dli_fbase));
  return s.str();
}

}  // namespace bspcheck::rt
