// program_image.hpp: where the executable keeps the memory that is private to a process in any
// real BSPlib (each BSP process is an OS process there): its writable data (.data, .bss, the
// copies of library variables such as stdout and std::cout that copy relocations put there,
// the static data of static libraries linked in) and its thread-local block. Found once, from
// the program headers of the main executable, and its initial contents kept: that image, taken
// after relocation and before the executable's constructors, is what every process starts from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bspcheck::rt {

// A range of the executable's memory that each process has a copy of.
struct PrivateRange {
  std::byte* lo;
  std::size_t size;
  bool thread_local_block;  // the executable's TLS block of the main thread
  // The page-aligned start a remapping of this range may use (the range's first page may begin
  // with the PLT's GOT, which is writable too), or nullptr when its first page is read-only.
  std::byte* page_lo = nullptr;
};

struct ProgramImage {
  std::vector<PrivateRange> ranges;  // writable data first, then the TLS block (if any)
  std::size_t total = 0;             // bytes over all ranges
  std::vector<std::byte> initial;    // the ranges' contents before the executable's constructors
  // The executable's constructors (DT_PREINIT_ARRAY then DT_INIT_ARRAY), in the order the C
  // library runs them at start-up.
  std::vector<void (*)(int, char**, char**)> constructors;
  std::uintptr_t exe_lo = 0, exe_hi = 0;  // the executable's mapped address range
  std::uintptr_t load_base = 0;           // where it was loaded (0 for a non-PIE executable)

  bool contains(const void* p) const {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    return a >= exe_lo && a < exe_hi;
  }
};

// The image of the running executable, read when the runtime library was loaded. Empty ranges
// when there is nothing to privatise (or the executable could not be read).
const ProgramImage& program_image();

// Its thread-local block alone (no ranges when the executable has none), with that block's
// initial contents: what a new thread starts from, and so each thread of MulticoreBSP, whose
// threads share the rest.
const ProgramImage& thread_local_image();

// The current contents of the image's ranges, one after the other (the layout of `initial`).
std::vector<std::byte> snapshot_ranges(const ProgramImage& image);

// Copies n bytes without going through an intercepted memcpy: the ranges hold sanitizer
// redzones between globals, which an instrumented memcpy would report.
void copy_raw(void* dst, const void* src, std::size_t n);
// The length of the run of bytes from a and b that are equal (up to n), read the same way.
std::size_t equal_prefix_raw(const void* a, const void* b, std::size_t n);

}  // namespace bspcheck::rt
