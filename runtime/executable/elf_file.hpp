// elf_file.hpp: a 64-bit ELF file read in pieces with pread: its section headers at once, a
// section's bytes when asked. The one reader of the runtime's two uses of an object's symbol
// tables, naming variables (elf_symbols.hpp) and what the library learns of the executable at
// load (executable_at_load.hpp). Neither reads the debug information, which is most of a -g file.
#pragma once

#include <elf.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace bspcheck::rt {

class ElfFile {
 public:
  // An unreadable file, or one that is not 64-bit ELF, gives a file with no sections. errno is
  // left as it was: the runtime reads files where the program may be looking at errno.
  explicit ElfFile(const char* path);
  ~ElfFile();
  ElfFile(const ElfFile&) = delete;
  ElfFile& operator=(const ElfFile&) = delete;

  const std::vector<Elf64_Shdr>& sections() const { return sections_; }
  // ".data", ".symtab"...; "" when the file has no section names.
  const char* name(const Elf64_Shdr& s) const;

  // The section's entries, when its entries are `T`s (sh_entsize); empty otherwise or unreadable.
  template <class T>
  std::vector<T> entries(const Elf64_Shdr& s) const {
    std::vector<T> out;
    if (s.sh_entsize != sizeof(T) || s.sh_type == SHT_NOBITS || !within(s)) return out;
    out.resize(s.sh_size / sizeof(T));
    if (!read(s.sh_offset, out.data(), out.size() * sizeof(T))) out.clear();
    return out;
  }
  // A string table's bytes with a NUL after them, so that every offset into it reads a string.
  std::vector<char> strings(const Elf64_Shdr& s) const;
  // The table linked to a symbol table (its names), or null.
  const Elf64_Shdr* linked(const Elf64_Shdr& s) const;
  // The file has a section called `name` (".gcc_except_table"...).
  bool has_section(const char* name) const;

  // The value (address before relocation) of the defined function `name` in the full symbol
  // table, or 0: a stripped file has no full table.
  std::uint64_t function(const char* name) const;
  // For each of `names`: the file uses it from another object (an undefined symbol of its
  // dynamic table). The table is read once for all of them.
  std::vector<bool> imports(std::initializer_list<const char*> names) const;

 private:
  struct Symbols {
    std::vector<Elf64_Sym> table;
    std::vector<char> names;
    // The first symbol called `name` that `wanted` accepts, or null.
    const Elf64_Sym* find(const char* name, bool (*wanted)(const Elf64_Sym&)) const;
  };
  // The file's symbol table of that type (SHT_SYMTAB, SHT_DYNSYM) with its names; empty if none.
  Symbols symbols(unsigned type) const;
  bool read(std::uint64_t offset, void* out, std::size_t n) const;
  // The section's bytes lie inside the file (a damaged header cannot make a huge allocation).
  bool within(const Elf64_Shdr& s) const { return s.sh_offset <= size_ && s.sh_size <= size_ - s.sh_offset; }

  std::uint64_t size_ = 0;  // of the file
  int fd_ = -1;
  std::vector<Elf64_Shdr> sections_;
  std::vector<char> section_names_;
};

}  // namespace bspcheck::rt
