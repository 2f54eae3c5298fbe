#include "runtime/executable/elf_symbols.hpp"

#include <algorithm>
#include <cstring>

#include "runtime/executable/elf_file.hpp"
#include "runtime/base/symbol_names.hpp"

namespace bspcheck::rt {

ElfSymbols::ElfSymbols(const std::string& path, std::uintptr_t base) {
  const ElfFile file(path.c_str());
  const std::vector<Elf64_Shdr>& sh = file.sections();
  for (const Elf64_Shdr& s : sh) {
    const char* n = file.name(s);
    if (std::strcmp(n, ".data") == 0 || std::strcmp(n, ".bss") == 0)
      variables_.push_back({base + s.sh_addr, base + s.sh_addr + s.sh_size});
  }
  // Symbols: the full table when the file has one, else the dynamic one. Names stay mangled
  // until a finding asks for one: a large C++ program has many thousands.
  for (unsigned wanted : {SHT_SYMTAB, SHT_DYNSYM}) {
    for (const Elf64_Shdr& s : sh) {
      if (s.sh_type != wanted || !file.linked(s)) continue;
      const std::vector<char> names = file.strings(*file.linked(s));
      for (const Elf64_Sym& sym : file.entries<Elf64_Sym>(s)) {
        if (ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_size == 0 || sym.st_shndx == SHN_UNDEF) continue;
        if (sym.st_name >= names.size()) continue;
        symbols_.push_back({base + sym.st_value, sym.st_size, names.data() + sym.st_name});
      }
    }
    if (!symbols_.empty()) break;
  }
  std::sort(symbols_.begin(), symbols_.end(), [](const Symbol& a, const Symbol& b) { return a.lo < b.lo; });
  // Copy relocations: the linker's copies of library variables in this object's .bss.
  for (const Elf64_Shdr& s : sh) {
    if (s.sh_type != SHT_RELA) continue;
    for (const Elf64_Rela& r : file.entries<Elf64_Rela>(s)) {
      const auto type = ELF64_R_TYPE(r.r_info);
#if defined(__x86_64__)
      const bool copy = type == R_X86_64_COPY;
#elif defined(__aarch64__)
      const bool copy = type == R_AARCH64_COPY;
#else
      const bool copy = false;
#endif
      if (!copy) continue;
      const std::uintptr_t lo = base + r.r_offset;
      std::size_t size = 8;  // the copied symbol's size when the table has it
      if (const Symbol* sym = covering(lo); sym && sym->lo == lo) size = sym->size;
      copies_.push_back({lo, lo + size});
    }
  }
}

const ElfSymbols::Symbol* ElfSymbols::covering(std::uintptr_t addr) const {
  auto it = std::upper_bound(symbols_.begin(), symbols_.end(), addr,
                             [](std::uintptr_t a, const Symbol& s) { return a < s.lo; });
  if (it == symbols_.begin()) return nullptr;
  --it;
  return addr < it->lo + it->size ? &*it : nullptr;
}

bool ElfSymbols::extent(std::uintptr_t addr, std::uintptr_t& lo, std::size_t& size) const {
  const Symbol* sym = covering(addr);
  if (!sym) return false;
  lo = sym->lo;
  size = sym->size;
  return true;
}

std::string ElfSymbols::name(std::uintptr_t addr) const {
  const Symbol* sym = covering(addr);
  if (!sym) return {};
  const std::uintptr_t off = addr - sym->lo;
  const std::string name = demangled(sym->name.c_str());
  return off ? name + "+" + std::to_string(off) : name;
}

}  // namespace bspcheck::rt
