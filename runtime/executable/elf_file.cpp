#include "runtime/executable/elf_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace bspcheck::rt {

ElfFile::ElfFile(const char* path) {
  const int saved_errno = errno;
  fd_ = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd_ >= 0 && fstat(fd_, &st) == 0) size_ = static_cast<std::uint64_t>(st.st_size);
  Elf64_Ehdr eh{};
  if (fd_ >= 0 && read(0, &eh, sizeof eh) && std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
      eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_shentsize == sizeof(Elf64_Shdr) && eh.e_shnum > 0) {
    sections_.resize(eh.e_shnum);
    if (!read(eh.e_shoff, sections_.data(), sections_.size() * sizeof(Elf64_Shdr))) sections_.clear();
    if (eh.e_shstrndx < sections_.size()) section_names_ = strings(sections_[eh.e_shstrndx]);
  }
  errno = saved_errno;
}

ElfFile::~ElfFile() {
  const int saved_errno = errno;
  if (fd_ >= 0) close(fd_);
  errno = saved_errno;
}

bool ElfFile::read(std::uint64_t offset, void* out, std::size_t n) const {
  if (fd_ < 0 || offset > size_ || n > size_ - offset) return false;
  // pread may return less than asked for a large read; a file that ends early is unreadable.
  auto* p = static_cast<char*>(out);
  while (n > 0) {
    const ssize_t got = pread(fd_, p, n, static_cast<off_t>(offset));
    if (got <= 0) {
      if (got < 0 && errno == EINTR) continue;
      return false;
    }
    p += got;
    offset += static_cast<std::uint64_t>(got);
    n -= static_cast<std::size_t>(got);
  }
  return true;
}

const char* ElfFile::name(const Elf64_Shdr& s) const {
  return s.sh_name < section_names_.size() ? section_names_.data() + s.sh_name : "";
}

std::vector<char> ElfFile::strings(const Elf64_Shdr& s) const {
  std::vector<char> out;
  if (s.sh_type != SHT_STRTAB || !within(s)) return out;
  out.assign(s.sh_size + 1, '\0');
  if (!read(s.sh_offset, out.data(), s.sh_size)) out.clear();
  return out;
}

bool ElfFile::has_section(const char* name) const {
  for (const Elf64_Shdr& s : sections_)
    if (std::strcmp(this->name(s), name) == 0) return true;
  return false;
}

const Elf64_Shdr* ElfFile::linked(const Elf64_Shdr& s) const {
  return s.sh_link < sections_.size() ? &sections_[s.sh_link] : nullptr;
}

const Elf64_Sym* ElfFile::Symbols::find(const char* name, bool (*wanted)(const Elf64_Sym&)) const {
  for (const Elf64_Sym& sym : table)
    if (wanted(sym) && sym.st_name < names.size() && std::strcmp(names.data() + sym.st_name, name) == 0) return &sym;
  return nullptr;
}

ElfFile::Symbols ElfFile::symbols(unsigned type) const {
  Symbols out;
  for (const Elf64_Shdr& s : sections_)
    if (s.sh_type == type && linked(s)) {  // one table of each type per file
      out.table = entries<Elf64_Sym>(s);
      out.names = strings(*linked(s));
      break;
    }
  return out;
}

std::uint64_t ElfFile::function(const char* name) const {
  const int saved_errno = errno;
  const Symbols table = symbols(SHT_SYMTAB);  // (find points into it)
  const Elf64_Sym* sym = table.find(name, [](const Elf64_Sym& s) {
    return ELF64_ST_TYPE(s.st_info) == STT_FUNC && s.st_shndx != SHN_UNDEF && s.st_value != 0;
  });
  const std::uint64_t value = sym ? sym->st_value : 0;
  errno = saved_errno;
  return value;
}

std::vector<bool> ElfFile::imports(std::initializer_list<const char*> names) const {
  const int saved_errno = errno;
  const Symbols table = symbols(SHT_DYNSYM);
  std::vector<bool> found;
  for (const char* name : names)
    found.push_back(table.find(name, [](const Elf64_Sym& s) { return s.st_shndx == SHN_UNDEF; }) != nullptr);
  errno = saved_errno;
  return found;
}

}  // namespace bspcheck::rt
