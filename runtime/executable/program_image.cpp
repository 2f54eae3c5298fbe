#include "runtime/executable/program_image.hpp"

#include <elf.h>
#include <link.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cstdint>
#include <iostream>

namespace bspcheck::rt {

namespace {

ProgramImage g_image;

struct Scan {
  ProgramImage* image;
  bool done = false;
};

std::uintptr_t dynamic_address(const ElfW(Dyn) * dyn, ElfW(Sxword) tag, std::uintptr_t base, bool* found) {
  for (const ElfW(Dyn)* d = dyn; d->d_tag != DT_NULL; ++d)
    if (d->d_tag == tag) {
      *found = true;
      // The dynamic linker relocates some entries in place and not others (the init arrays are
      // not): an address below the load base is still a link-time one.
      return d->d_un.d_ptr >= base ? d->d_un.d_ptr : d->d_un.d_ptr + base;
    }
  *found = false;
  return 0;
}

std::size_t dynamic_value(const ElfW(Dyn) * dyn, ElfW(Sxword) tag) {
  for (const ElfW(Dyn)* d = dyn; d->d_tag != DT_NULL; ++d)
    if (d->d_tag == tag) return d->d_un.d_val;
  return 0;
}

int scan_main_program(dl_phdr_info* info, std::size_t, void* arg) {
  auto& scan = *static_cast<Scan*>(arg);
  if (scan.done) return 1;
  scan.done = true;  // the first object listed is the main program
  ProgramImage& im = *scan.image;
  const std::uintptr_t base = info->dlpi_addr;
  im.load_base = base;
  std::uintptr_t relro_end = 0;
  const ElfW(Dyn)* dynamic = nullptr;
  im.exe_lo = UINTPTR_MAX;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_GNU_RELRO) relro_end = base + ph.p_vaddr + ph.p_memsz;
    if (ph.p_type == PT_DYNAMIC) dynamic = reinterpret_cast<const ElfW(Dyn)*>(base + ph.p_vaddr);
    if (ph.p_type == PT_LOAD) {
      im.exe_lo = std::min<std::uintptr_t>(im.exe_lo, base + ph.p_vaddr);
      im.exe_hi = std::max<std::uintptr_t>(im.exe_hi, base + ph.p_vaddr + ph.p_memsz);
    }
  }
  // The PLT's part of the GOT, which lazy binding fills in at a function's first call: shared by
  // all processes, so that a function is bound once, not once per process.
  std::uintptr_t got_plt_end = 0;
  if (dynamic) {
    bool found = false;
    const std::uintptr_t got = dynamic_address(dynamic, DT_PLTGOT, base, &found);
    const std::size_t entries = 3 + dynamic_value(dynamic, DT_PLTRELSZ) / sizeof(ElfW(Rela));
    if (found) got_plt_end = got + entries * sizeof(void*);
  }
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_W)) continue;
    // The part made read-only after relocation (RELRO) holds no program variables, nor does the GOT.
    std::uintptr_t lo = base + ph.p_vaddr, hi = lo + ph.p_memsz;
    if (relro_end > lo && relro_end <= hi) lo = relro_end;
    const std::uintptr_t writable_lo = lo;
    if (got_plt_end > lo && got_plt_end <= hi) lo = got_plt_end;
    const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const std::uintptr_t page_lo = lo / page * page;
    if (hi > lo)
      im.ranges.push_back({reinterpret_cast<std::byte*>(lo), hi - lo, false,
                           page_lo >= writable_lo ? reinterpret_cast<std::byte*>(page_lo) : nullptr});
  }
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_TLS && ph.p_memsz > 0 && info->dlpi_tls_data)
      im.ranges.push_back({static_cast<std::byte*>(info->dlpi_tls_data), ph.p_memsz, true});
  }
  if (dynamic) {
    for (auto [array, size] :
         {std::pair{DT_PREINIT_ARRAY, DT_PREINIT_ARRAYSZ}, std::pair{DT_INIT_ARRAY, DT_INIT_ARRAYSZ}}) {
      bool found = false;
      const std::uintptr_t at = dynamic_address(dynamic, array, base, &found);
      const std::size_t n = dynamic_value(dynamic, size) / sizeof(void*);
      if (!found) continue;
      auto* fns = reinterpret_cast<void (**)(int, char**, char**)>(at);
      for (std::size_t k = 0; k < n; ++k)
        if (fns[k] && reinterpret_cast<std::uintptr_t>(fns[k]) != std::uintptr_t(-1)) im.constructors.push_back(fns[k]);
    }
  }
  return 1;
}

// Runs when the runtime library is loaded: after the executable is relocated, before its
// constructors. std::cout and friends, which copy relocations may place in the executable's
// .bss, are constructed first so that every process's copy starts with working streams.
__attribute__((constructor)) void read_program_image() {
  static std::ios_base::Init streams_constructed;
  Scan scan{&g_image};
  dl_iterate_phdr(&scan_main_program, &scan);
  for (const PrivateRange& r : g_image.ranges) g_image.total += r.size;
  g_image.initial = snapshot_ranges(g_image);
}

}  // namespace

const ProgramImage& program_image() { return g_image; }

const ProgramImage& thread_local_image() {
  static const ProgramImage tls = [] {
    ProgramImage im;
    im.exe_lo = g_image.exe_lo;
    im.exe_hi = g_image.exe_hi;
    im.load_base = g_image.load_base;
    std::size_t at = 0;
    for (const PrivateRange& r : g_image.ranges) {
      if (r.thread_local_block) {
        im.ranges.push_back(r);
        im.initial.insert(im.initial.end(), g_image.initial.begin() + static_cast<std::ptrdiff_t>(at),
                          g_image.initial.begin() + static_cast<std::ptrdiff_t>(at + r.size));
        im.total += r.size;
      }
      at += r.size;
    }
    return im;
  }();
  return tls;
}

std::vector<std::byte> snapshot_ranges(const ProgramImage& image) {
  std::vector<std::byte> bytes(image.total);
  std::size_t at = 0;
  for (const PrivateRange& r : image.ranges) {
    copy_raw(bytes.data() + at, r.lo, r.size);
    at += r.size;
  }
  return bytes;
}

// A switch copies a small program's globals out and in (a few hundred bytes each way), where
// `rep movsb` spends more on starting than on copying: about 30 cycles for 312 bytes, against 20
// 16-byte moves. So up to kShortCopy bytes move through SSE registers, the last 16 (or 8, 4, 1)
// bytes overlapping the previous move instead of a loop for the tail. Not instrumented: the
// ranges hold sanitizer redzones, and the function must not become a call of memcpy (whose
// interceptor would check them), hence intrinsics rather than a loop the compiler could
// recognise as one.
__attribute__((no_sanitize("address", "thread", "undefined"))) void copy_raw(void* dst, const void* src,
                                                                             std::size_t n) {
#if defined(__x86_64__)
  constexpr std::size_t kShortCopy = 1024;
  auto* d = static_cast<char*>(dst);
  const auto* s = static_cast<const char*>(src);
  if (n >= 16 && n <= kShortCopy) {
    const __m128i last = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + n - 16));
    for (std::size_t i = 0; i + 16 <= n; i += 16)
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + n - 16), last);
    return;
  }
  if (n < 16) {
    if (n >= 8) {
      const std::uint64_t a = *reinterpret_cast<const volatile std::uint64_t*>(s),
                          b = *reinterpret_cast<const volatile std::uint64_t*>(s + n - 8);
      *reinterpret_cast<volatile std::uint64_t*>(d) = a;
      *reinterpret_cast<volatile std::uint64_t*>(d + n - 8) = b;
    } else if (n >= 4) {
      const std::uint32_t a = *reinterpret_cast<const volatile std::uint32_t*>(s),
                          b = *reinterpret_cast<const volatile std::uint32_t*>(s + n - 4);
      *reinterpret_cast<volatile std::uint32_t*>(d) = a;
      *reinterpret_cast<volatile std::uint32_t*>(d + n - 4) = b;
    } else {
      for (std::size_t i = 0; i < n; ++i) static_cast<volatile char*>(dst)[i] = s[i];
    }
    return;
  }
  asm volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
#else
  auto* d = static_cast<volatile unsigned char*>(dst);
  auto* s = static_cast<const volatile unsigned char*>(src);
  for (std::size_t i = 0; i < n; ++i) d[i] = s[i];
#endif
}

__attribute__((no_sanitize("address", "thread", "undefined"))) std::size_t equal_prefix_raw(const void* a,
                                                                                            const void* b,
                                                                                            std::size_t n) {
  const auto* x = static_cast<const volatile unsigned char*>(a);
  const auto* y = static_cast<const volatile unsigned char*>(b);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {  // word at a time: the common case is "all equal"
    std::uint64_t u, v;
    __builtin_memcpy(&u, const_cast<const unsigned char*>(x) + i, 8);
    __builtin_memcpy(&v, const_cast<const unsigned char*>(y) + i, 8);
    if (u != v) break;
  }
  while (i < n && x[i] == y[i]) ++i;
  return i;
}

}  // namespace bspcheck::rt
