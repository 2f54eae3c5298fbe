#include "runtime/elf_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace bspcheck::rt {

ElfFile::ElfFile(const char* path) {
  const int saved_errno = errno;
  fd_ = open(path, O_RDONLY | O_CLOEXEC);
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
  if (fd_ < 0) return false;
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
  if (s.sh_type != SHT_STRTAB) return out;
  out.assign(s.sh_size + 1, '\0');
  if (!read(s.sh_offset, out.data(), s.sh_size)) out.clear();
  return out;
}

const Elf64_Shdr* ElfFile::linked(const Elf64_Shdr& s) const {
  return s.sh_link < sections_.size() ? &sections_[s.sh_link] : nullptr;
}

std::uint64_t ElfFile::function(const char* name) const {
  const int saved_errno = errno;
  std::uint64_t found = 0;
  for (const Elf64_Shdr& s : sections_) {
    if (s.sh_type != SHT_SYMTAB || !linked(s)) continue;
    const std::vector<char> names = strings(*linked(s));
    for (const Elf64_Sym& sym : entries<Elf64_Sym>(s))
      if (ELF64_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_shndx != SHN_UNDEF && sym.st_value != 0 &&
          sym.st_name < names.size() && std::strcmp(names.data() + sym.st_name, name) == 0) {
        found = sym.st_value;
        break;
      }
    break;  // one full table per file
  }
  errno = saved_errno;
  return found;
}

bool ElfFile::imports(const char* name) const {
  const int saved_errno = errno;
  bool found = false;
  for (const Elf64_Shdr& s : sections_) {
    if (s.sh_type != SHT_DYNSYM || !linked(s)) continue;
    const std::vector<char> names = strings(*linked(s));
    for (const Elf64_Sym& sym : entries<Elf64_Sym>(s))
      if (sym.st_shndx == SHN_UNDEF && sym.st_name < names.size() && std::strcmp(names.data() + sym.st_name, name) == 0) {
        found = true;
        break;
      }
    break;
  }
  errno = saved_errno;
  return found;
}

}  // namespace bspcheck::rt
