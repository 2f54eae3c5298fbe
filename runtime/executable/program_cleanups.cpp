#include "runtime/executable/program_cleanups.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/executable/elf_file.hpp"
#include "runtime/executable/executable_at_load.hpp"

namespace bspcheck::rt {

namespace {

struct Verdict {
  bool known = false;
  unsigned long long adds = 0, subs = 0;  // the loader's counts of loads and unloads it holds for
  bool cleanups = true;
};
Verdict g_verdict;

bool has_exception_tables(const ElfFile& f) {
  // Unreadable, or no section headers: it may have them.
  return f.sections().empty() || f.has_section(".gcc_except_table");
}

// The libraries an object needs (its DT_NEEDED names), read from its file.
std::vector<std::string> needed_by(const char* path) {
  std::vector<std::string> names;
  const ElfFile f(path);
  for (const Elf64_Shdr& s : f.sections()) {
    if (s.sh_type != SHT_DYNAMIC || !f.linked(s)) continue;
    const std::vector<char> strings = f.strings(*f.linked(s));
    for (const Elf64_Dyn& d : f.entries<Elf64_Dyn>(s))
      if (d.d_tag == DT_NEEDED && d.d_un.d_val < strings.size()) names.emplace_back(strings.data() + d.d_un.d_val);
  }
  return names;
}

const char* base_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

struct Counts {
  unsigned long long adds = 0, subs = 0;
};

int loader_counts(dl_phdr_info* info, std::size_t size, void* out) {
  if (size >= offsetof(dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
    *static_cast<Counts*>(out) = Counts{info->dlpi_adds, info->dlpi_subs};
  return 1;  // the counts are the same in every entry
}

struct Walk {
  const char* runtime_path;
  std::vector<std::string> runtime_needs;
  bool first = true;
  bool cleanups = false;
};

int look_at_object(dl_phdr_info* info, std::size_t, void* arg) {
  Walk& w = *static_cast<Walk*>(arg);
  const char* name = info->dlpi_name ? info->dlpi_name : "";
  const bool executable = w.first;
  w.first = false;
  if (executable) {
    w.cleanups = executable_at_load().exception_tables;
  } else if (!std::strchr(name, '/')) {
    // The kernel's vDSO (named by its soname only): no file, and no frame of it calls the runtime.
  } else if (std::strcmp(name, w.runtime_path) != 0) {
    bool runtimes = false;
    for (const std::string& needed : w.runtime_needs) runtimes = runtimes || needed == base_name(name);
    if (!runtimes) w.cleanups = has_exception_tables(ElfFile(name));
  }
  return w.cleanups ? 1 : 0;  // the first object with cleanups decides
}

bool work_out() {
  Dl_info self{};
  if (!dladdr(reinterpret_cast<void*>(&program_code_has_cleanups), &self) || !self.dli_fname) return true;
  Walk w{self.dli_fname, needed_by(self.dli_fname)};
  dl_iterate_phdr(&look_at_object, &w);
  return w.cleanups;
}

// At load, before any process runs: a fork server's workers then start their runs knowing it.
__attribute__((constructor)) void work_out_at_load() { program_code_has_cleanups(); }

}  // namespace

bool program_code_has_cleanups() {
  const int saved_errno = errno;  // the program may be looking at errno
  Counts now;
  dl_iterate_phdr(&loader_counts, &now);
  if (!g_verdict.known || now.adds != g_verdict.adds || now.subs != g_verdict.subs)
    g_verdict = Verdict{true, now.adds, now.subs, work_out()};
  errno = saved_errno;
  return g_verdict.cleanups;
}

}  // namespace bspcheck::rt
