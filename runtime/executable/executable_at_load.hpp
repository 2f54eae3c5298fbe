// executable_at_load.hpp: what the library's constructors need to know about the executable's
// file before the program runs, read from it once (runtime/executable/elf_file.hpp: the section headers, the
// full symbol table and the dynamic one), whichever constructor asks first. The file is closed
// again at once: a descriptor the program did not open would be one it could see.
#pragma once

#include <cstdint>

namespace bspcheck::rt {

struct ExecutableAtLoad {
  // The value of the executable's own _Unwind_Backtrace (a copy of libgcc's unwinder linked in
  // with -static-libgcc), or 0: none, or a stripped file (program_unwinder.hpp).
  std::uint64_t own_unwind_backtrace = 0;
  // The executable carries its own C++ personality routine and unwinder (-static-libstdc++
  // -static-libgcc): it has exception tables and imports none of __gxx_personality_v0,
  // __gcc_personality_v0, _Unwind_SetGR and _Unwind_Resume. Unwinding through its frames then
  // uses the unwinder's tables in its own data.
  bool own_personality_and_unwinder = false;
  // The executable has exception tables (.gcc_except_table), or no section headers to tell: some
  // frame of its code may have a cleanup to run when a stack is unwound (program_cleanups.hpp).
  bool exception_tables = true;
  // A cBSP program: it calls cBSP_send (engine/systems/cbsp_runtime.cpp records its heap's owners).
  bool imports_cbsp_send = false;
};

const ExecutableAtLoad& executable_at_load();

}  // namespace bspcheck::rt
