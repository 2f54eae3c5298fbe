#include "runtime/executable/executable_at_load.hpp"

#include <vector>

#include "runtime/executable/elf_file.hpp"

namespace bspcheck::rt {

namespace {

ExecutableAtLoad read_executable() {
  // Only the section headers and the symbol tables are read; errno stays as it was (the program
  // starts with errno 0, C11 7.5).
  const ElfFile exe("/proc/self/exe");
  ExecutableAtLoad out;
  out.own_unwind_backtrace = exe.function("_Unwind_Backtrace");
  const bool exception_tables = exe.has_section(".gcc_except_table");
  const std::vector<bool> imported =
      exe.imports({"__gxx_personality_v0", "_Unwind_SetGR", "__gcc_personality_v0", "_Unwind_Resume", "cBSP_send"});
  // C built with -fexceptions (cleanup attributes) has tables too, and takes its personality
  // routine and _Unwind_Resume from libgcc_s.
  out.own_personality_and_unwinder = exception_tables && !imported[0] && !imported[1] && !imported[2] && !imported[3];
  out.exception_tables = exception_tables || exe.sections().empty();
  out.imports_cbsp_send = imported[4];
  return out;
}

}  // namespace

const ExecutableAtLoad& executable_at_load() {
  static const ExecutableAtLoad facts = read_executable();
  return facts;
}

}  // namespace bspcheck::rt
