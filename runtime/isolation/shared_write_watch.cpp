#include "runtime/isolation/shared_write_watch.hpp"

#include <link.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <tuple>

#include "runtime/executable/executable_symbols.hpp"
#include "runtime/executable/program_image.hpp"

namespace bspcheck::rt {

namespace {

// Libraries of the system (the C and C++ runtimes, Boost, sanitizers) and the runtime itself keep
// state that is theirs, not the program's: only the program's own libraries are watched.
bool is_program_library(const std::string& path) {
  if (path.empty() || path.find("linux-vdso") != std::string::npos || path.find("libbspcheck") != std::string::npos)
    return false;
  for (const char* system : {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/libexec/"})
    if (path.rfind(system, 0) == 0) return false;
  return true;
}

struct Loaded {
  std::string path;
  std::uintptr_t base;
  bool executable;
};

int list_objects(dl_phdr_info* info, std::size_t, void* arg) {
  auto& out = *static_cast<std::vector<Loaded>*>(arg);
  out.push_back({info->dlpi_name ? info->dlpi_name : "", info->dlpi_addr, out.empty()});
  return 0;
}

}  // namespace

void SharedWriteWatch::watch(std::uintptr_t lo, std::uintptr_t hi, const std::shared_ptr<const ElfSymbols>& symbols,
                             const std::string& object) {
  if (hi <= lo) return;
  ranges_.push_back({reinterpret_cast<std::byte*>(lo), hi - lo, snapshot_.size(), symbols, object});
  snapshot_.resize(snapshot_.size() + (hi - lo));
}

std::unique_ptr<SharedWriteWatch> SharedWriteWatch::create(bool executable_shared, std::FILE* note) {
  std::vector<Loaded> objects;
  dl_iterate_phdr(&list_objects, &objects);
  auto w = std::unique_ptr<SharedWriteWatch>(new SharedWriteWatch);
  for (const Loaded& o : objects) {
    if (o.executable ? !executable_shared : !is_program_library(o.path)) continue;
    auto symbols = o.executable ? executable_symbols() : std::make_shared<const ElfSymbols>(o.path, o.base);
    const std::string object = o.executable ? "the executable" : o.path;
    // Variables minus the linker's copies of library variables (stdout, std::cout...), which
    // every process uses and which are the library's business.
    for (const ElfSymbols::Range& v : symbols->variable_sections()) {
      std::uintptr_t lo = v.lo;
      std::vector<ElfSymbols::Range> copies = symbols->copied_variables();
      std::sort(copies.begin(), copies.end(), [](auto& a, auto& b) { return a.lo < b.lo; });
      for (const ElfSymbols::Range& c : copies) {
        if (c.hi <= lo || c.lo >= v.hi) continue;
        w->watch(lo, std::min(c.lo, v.hi), symbols, object);
        lo = std::max(lo, c.hi);
      }
      w->watch(lo, v.hi, symbols, object);
    }
  }
  if (w->ranges_.empty()) return nullptr;
  if (w->snapshot_.size() > kMaxWatchedBytes) {
    if (note)
      std::fprintf(note,
                   "bsp-check: note: %zu bytes of shared variables are more than the global-shared check "
                   "watches (%zu); it is off for this run\n",
                   w->snapshot_.size(), kMaxWatchedBytes);
    return nullptr;
  }
  w->resnapshot();
  return w;
}

void SharedWriteWatch::resnapshot() {
  for (const Watched& r : ranges_) copy_raw(snapshot_.data() + r.at, r.lo, r.size);
}

void SharedWriteWatch::collect(int pid, const Site& site, const char* call) {
  // The watched ranges hold sanitizer redzones between globals: read them uninstrumented.
  for (const Watched& r : ranges_) {
    std::byte* snap = snapshot_.data() + r.at;
    for (std::size_t i = equal_prefix_raw(snap, r.lo, r.size); i < r.size;) {
      std::size_t j = i + 1;
      while (j < r.size && equal_prefix_raw(snap + j, r.lo + j, 1) == 0) ++j;
      const auto lo = reinterpret_cast<std::uintptr_t>(r.lo + i);
      const bool again = !writes_.empty() && writes_.back().pid == pid && writes_.back().lo == lo &&
                         writes_.back().hi == lo + (j - i);  // a loop rewriting one variable
      if (!again) writes_.push_back({lo, lo + (j - i), pid, site, call, &r});
      copy_raw(snap + i, r.lo + i, j - i);
      i = j + equal_prefix_raw(snap + j, r.lo + j, r.size - j);
    }
  }
}

std::vector<SharedWriteWatch::Conflict> SharedWriteWatch::take_conflicts() {
  std::vector<Conflict> out;
  std::sort(writes_.begin(), writes_.end(), [](const Write& a, const Write& b) { return a.lo < b.lo; });
  std::set<std::tuple<std::string, int, int>> seen;
  for (std::size_t i = 0; i < writes_.size(); ++i)
    for (std::size_t j = i + 1; j < writes_.size() && writes_[j].lo < writes_[i].hi; ++j) {
      const Write& a = writes_[i];
      const Write& b = writes_[j];
      if (a.pid == b.pid) continue;
      // The variable: the symbol that holds the first shared byte, without the offset into it.
      const std::uintptr_t at = std::max(a.lo, b.lo);
      std::string name = a.range->symbols->name(at);
      if (const std::size_t plus = name.rfind('+'); plus != std::string::npos) name.resize(plus);
      if (name.empty()) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "an unnamed variable at %p", reinterpret_cast<void*>(at));
        name = buf;
      }
      const Write& first = a.pid < b.pid ? a : b;
      const Write& second = a.pid < b.pid ? b : a;
      if (!seen.insert({name, first.pid, second.pid}).second) continue;
      out.push_back({name, a.range->object, first.pid, second.pid, first.site, second.site, first.call, second.call});
    }
  writes_.clear();
  return out;
}

}  // namespace bspcheck::rt
