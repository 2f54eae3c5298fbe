#include "runtime/elf_symbols.hpp"

#include <elf.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "runtime/symbol_names.hpp"

namespace bspcheck::rt {

namespace {

template <class T>
bool read_at(const std::string& file, std::size_t offset, T* out, std::size_t count = 1) {
  if (offset > file.size() || count > (file.size() - offset) / sizeof(T)) return false;
  std::memcpy(out, file.data() + offset, sizeof(T) * count);
  return true;
}

}  // namespace

ElfSymbols::ElfSymbols(const std::string& path, std::uintptr_t base) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return;
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Elf64_Ehdr eh{};
  if (!read_at(file, 0, &eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_shentsize != sizeof(Elf64_Shdr))
    return;
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  if (!read_at(file, eh.e_shoff, sh.data(), sh.size()) || eh.e_shstrndx >= sh.size()) return;
  auto section_name = [&](const Elf64_Shdr& s) -> std::string {
    const std::size_t at = sh[eh.e_shstrndx].sh_offset + s.sh_name;
    return at < file.size() ? std::string(file.c_str() + at) : std::string();
  };
  for (const Elf64_Shdr& s : sh) {
    const std::string n = section_name(s);
    if (n == ".data" || n == ".bss") variables_.push_back({base + s.sh_addr, base + s.sh_addr + s.sh_size});
  }
  // Symbols: the full table when the file has one, else the dynamic one.
  for (unsigned wanted : {SHT_SYMTAB, SHT_DYNSYM}) {
    for (const Elf64_Shdr& s : sh) {
      if (s.sh_type != wanted || s.sh_entsize != sizeof(Elf64_Sym) || s.sh_link >= sh.size()) continue;
      const Elf64_Shdr& strtab = sh[s.sh_link];
      std::vector<Elf64_Sym> syms(s.sh_size / sizeof(Elf64_Sym));
      if (!read_at(file, s.sh_offset, syms.data(), syms.size())) continue;
      for (const Elf64_Sym& sym : syms) {
        if (ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_size == 0 || sym.st_shndx == SHN_UNDEF) continue;
        const std::size_t at = strtab.sh_offset + sym.st_name;
        if (at >= file.size()) continue;
        symbols_.push_back({base + sym.st_value, sym.st_size, demangled(file.c_str() + at)});
      }
    }
    if (!symbols_.empty()) break;
  }
  std::sort(symbols_.begin(), symbols_.end(), [](const Symbol& a, const Symbol& b) { return a.lo < b.lo; });
  // Copy relocations: the linker's copies of library variables in this object's .bss.
  for (const Elf64_Shdr& s : sh) {
    if (s.sh_type != SHT_RELA || s.sh_entsize != sizeof(Elf64_Rela)) continue;
    std::vector<Elf64_Rela> rel(s.sh_size / sizeof(Elf64_Rela));
    if (!read_at(file, s.sh_offset, rel.data(), rel.size())) continue;
    for (const Elf64_Rela& r : rel) {
      const auto type = ELF64_R_TYPE(r.r_info);
#if defined(__x86_64__)
      const bool copy = type == R_X86_64_COPY;
#elif defined(__aarch64__)
      const bool copy = type == R_AARCH64_COPY;
#else
      const bool copy = false;
#endif
      if (!copy) continue;
      std::size_t size = 8;
      for (const Symbol& sym : symbols_)
        if (sym.lo == base + r.r_offset) size = sym.size;
      copies_.push_back({base + r.r_offset, base + r.r_offset + size});
    }
  }
}

bool ElfSymbols::extent(std::uintptr_t addr, std::uintptr_t& lo, std::size_t& size) const {
  auto it = std::upper_bound(symbols_.begin(), symbols_.end(), addr,
                             [](std::uintptr_t a, const Symbol& s) { return a < s.lo; });
  if (it == symbols_.begin()) return false;
  --it;
  if (addr >= it->lo + it->size) return false;
  lo = it->lo;
  size = it->size;
  return true;
}

std::string ElfSymbols::name(std::uintptr_t addr) const {
  auto it = std::upper_bound(symbols_.begin(), symbols_.end(), addr,
                             [](std::uintptr_t a, const Symbol& s) { return a < s.lo; });
  if (it == symbols_.begin()) return {};
  --it;
  if (addr >= it->lo + it->size) return {};
  const std::uintptr_t off = addr - it->lo;
  return off ? it->name + "+" + std::to_string(off) : it->name;
}

}  // namespace bspcheck::rt
