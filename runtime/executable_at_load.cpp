#include "runtime/executable_at_load.hpp"

#include <cstring>

#include "runtime/elf_file.hpp"

namespace bspcheck::rt {

namespace {

ExecutableAtLoad read_executable() {
  // Only the section headers and the symbol tables are read; errno stays as it was (the program
  // starts with errno 0, C11 7.5).
  const ElfFile exe("/proc/self/exe");
  ExecutableAtLoad out;
  out.own_unwind_backtrace = exe.function("_Unwind_Backtrace");
  bool exception_tables = false;
  for (const Elf64_Shdr& s : exe.sections())
    exception_tables = exception_tables || std::strcmp(exe.name(s), ".gcc_except_table") == 0;
  out.own_personality_and_unwinder =
      exception_tables && !exe.imports("__gxx_personality_v0") && !exe.imports("_Unwind_SetGR");
  out.imports_cbsp_send = exe.imports("cBSP_send");
  return out;
}

}  // namespace

const ExecutableAtLoad& executable_at_load() {
  static const ExecutableAtLoad facts = read_executable();
  return facts;
}

}  // namespace bspcheck::rt
