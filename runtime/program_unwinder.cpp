#include "runtime/program_unwinder.hpp"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

namespace bspcheck::rt {

namespace {

using TraceFn = int (*)(void* context, void* arg);
using BacktraceFn = int (*)(TraceFn, void*);
BacktraceFn g_program_backtrace = nullptr;

bool read_at(int fd, std::uint64_t offset, void* out, std::size_t n) {
  return pread(fd, out, n, static_cast<off_t>(offset)) == static_cast<ssize_t>(n);
}

int main_program_base(dl_phdr_info* info, std::size_t, void* out) {
  *static_cast<std::uintptr_t*>(out) = info->dlpi_addr;
  return 1;  // the first object is the executable
}

// The executable's own definition of `name` (a function in its full symbol table, which is not
// loaded: read from the file), or 0. Only the section headers, the symbol table and its strings
// are read. A stripped executable has no full table: 0.
std::uintptr_t executable_function(const char* name) {
  const int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  std::uintptr_t found = 0;
  Elf64_Ehdr eh{};
  std::vector<Elf64_Shdr> sh;
  if (read_at(fd, 0, &eh, sizeof eh) && std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
      eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_shentsize == sizeof(Elf64_Shdr) && eh.e_shnum > 0) {
    sh.resize(eh.e_shnum);
    if (!read_at(fd, eh.e_shoff, sh.data(), sh.size() * sizeof(Elf64_Shdr))) sh.clear();
  }
  const std::size_t name_len = std::strlen(name);
  for (const Elf64_Shdr& s : sh) {
    if (s.sh_type != SHT_SYMTAB || s.sh_entsize != sizeof(Elf64_Sym) || s.sh_link >= sh.size()) continue;
    const Elf64_Shdr& strtab = sh[s.sh_link];
    std::vector<char> strings(strtab.sh_size + 1, '\0');
    std::vector<Elf64_Sym> syms(s.sh_size / sizeof(Elf64_Sym));
    if (!read_at(fd, strtab.sh_offset, strings.data(), strtab.sh_size) ||
        !read_at(fd, s.sh_offset, syms.data(), syms.size() * sizeof(Elf64_Sym)))
      break;
    for (const Elf64_Sym& sym : syms)
      if (ELF64_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_shndx != SHN_UNDEF && sym.st_value != 0 &&
          sym.st_name + name_len < strings.size() && std::strcmp(strings.data() + sym.st_name, name) == 0) {
        std::uintptr_t base = 0;
        dl_iterate_phdr(&main_program_base, &base);
        found = base + sym.st_value;
        break;
      }
    break;
  }
  close(fd);
  return found;
}

// At load, before any process runs (and before a fork server's worker snapshots its memory).
__attribute__((constructor)) void find_program_unwinder() {
  const int saved_errno = errno;  // the program starts with errno 0 (C11 7.5)
  g_program_backtrace = reinterpret_cast<BacktraceFn>(executable_function("_Unwind_Backtrace"));
  errno = saved_errno;
}

int stop_at_once(void*, void*) { return 5; }  // _URC_END_OF_STACK: anything but _URC_NO_REASON stops

}  // namespace

void prime_program_unwinder() {
  if (g_program_backtrace) g_program_backtrace(&stop_at_once, nullptr);
}

}  // namespace bspcheck::rt
