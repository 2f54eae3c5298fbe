#include "runtime/executable/executable_symbols.hpp"

#include "runtime/executable/program_image.hpp"

namespace bspcheck::rt {

std::shared_ptr<const ElfSymbols> executable_symbols() {
  // Never destroyed: a check may name a variable while static destructors run.
  static auto* symbols = new std::shared_ptr<const ElfSymbols>(
      std::make_shared<const ElfSymbols>("/proc/self/exe", program_image().load_base));
  return *symbols;
}

}  // namespace bspcheck::rt
