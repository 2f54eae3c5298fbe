// elf_symbols.hpp: the data symbols of a loaded ELF object (the executable or a shared library),
// read from its file (elf_file.hpp: its symbol tables and relocations, not its debug information), so that a finding
// can name a variable ("the global `counter`") instead of an address. Also tells which of its bytes are program
// variables (.data, .bss) and which are copies of library variables made by copy relocations (stdout, std::cout,
// optind...).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bspcheck::rt {

class ElfSymbols {
 public:
  // Reads `path`, an object loaded at `base` (dl_iterate_phdr's dlpi_addr). An unreadable or
  // non-ELF file gives an object that knows nothing (every lookup fails).
  ElfSymbols(const std::string& path, std::uintptr_t base);

  struct Range {
    std::uintptr_t lo, hi;
  };
  // .data and .bss (and .tdata/.tbss excluded): where the object's own variables live.
  const std::vector<Range>& variable_sections() const { return variables_; }
  // Bytes holding copies of other objects' variables (R_*_COPY relocations).
  const std::vector<Range>& copied_variables() const { return copies_; }

  // "counter" or "counter+4" (C++ names demangled) for an address inside a data symbol; empty
  // when no symbol covers it.
  std::string name(std::uintptr_t addr) const;
  // The data symbol covering `addr` (its first byte and size), or false when none does.
  bool extent(std::uintptr_t addr, std::uintptr_t& lo, std::size_t& size) const;

 private:
  struct Symbol {
    std::uintptr_t lo;
    std::size_t size;
    std::string name;  // as in the file (mangled)
  };
  // The symbol whose bytes include addr, or null.
  const Symbol* covering(std::uintptr_t addr) const;

  std::vector<Symbol> symbols_;  // sorted by address
  std::vector<Range> variables_;
  std::vector<Range> copies_;
};

}  // namespace bspcheck::rt
