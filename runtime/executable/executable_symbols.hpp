// executable_symbols.hpp: the executable's data symbols (elf_symbols.hpp), read once per OS
// process and shared by every check that names or measures a global: global-shared's names,
// cbsp-dest-overrun's sizes, the bsp_init notes. A fork server reads them before its first
// worker, so that they are in the memory each worker saves at bsp_begin: a worker's runs return
// to that memory, and a table read during a run would be read again by every run.
#pragma once

#include <memory>

#include "runtime/executable/elf_symbols.hpp"

namespace bspcheck::rt {

// Read at the first call (from /proc/self/exe at the executable's load address).
std::shared_ptr<const ElfSymbols> executable_symbols();

}  // namespace bspcheck::rt
