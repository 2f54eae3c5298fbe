// call_stacks.hpp: the stacks of BSPlib calls made through a wrapper, so that a finding names
// the user's line and not the wrapper's.
//
// A C++ class around bsp_push_reg, or a helper in a header, makes the primitive's site the same
// line for every caller: a finding located there does not say which of the program's calls went
// wrong. A call whose site is in a wrapper file (a header, or a file matching the `wrappers`
// option) has its calling stack captured (return addresses, interned, so the same stack is kept
// once); a finding then symbolises it (inline frames expanded, by libbacktrace) and is located at
// the first frame outside wrapper files, the whole stack attached. Other calls pay one pointer
// comparison. Calls without a bsp.h site (a program built against another bsp.h) have no stack:
// judging their file would read the debug information at the first call of every run.
#pragma once

#include <cstdint>
#include <string>
#include <typeinfo>
#include <vector>

#include "bspcheck/bspcheck.hpp"
#include "runtime/base/site.hpp"

namespace bspcheck::rt {

// File patterns whose calls are wrappers' besides headers, comma-separated: a glob ("*/lib/*.cpp")
// or a path suffix at a component boundary ("bsp_wrap.cpp"). Set once per run.
void set_wrapper_files(const std::string& patterns);

// Whether a source file is a wrapper's: a header by its extension (.h, .hpp, .hh, .hxx, .inl,
// .ipp, .tcc, .tpp, or none, like <vector>), or a match of the patterns above.
bool is_wrapper_file(const std::string& file);

namespace detail {
extern const char* g_last_direct_file;
Site with_wrapper_stack_slow(Site site);
}  // namespace detail

// Whether a call from `file` needs no calling stack. A direct call pays one comparison: __FILE__ is
// one literal per translation unit, so the last site file found not to be a wrapper's is compared
// by address. Calls without a site file are not judged (see above).
inline bool is_direct_site_file(const char* file) { return file == nullptr || file == detail::g_last_direct_file; }

// The site, with the calling stack captured when it is in a wrapper file (else unchanged). Called
// where a primitive takes its site: every frame of this call above site.pc is the program's.
inline Site with_wrapper_stack(Site site) {
  if (__builtin_expect(is_direct_site_file(site.file), 1)) return site;
  return detail::with_wrapper_stack_slow(site);
}

// Where the running process's last allocation failed: operator new's handler (installed for the
// run) keeps the stack, without allocating, before bad_alloc is thrown. The stack's id (0: no
// failure noted since the last call), for the out-of-memory finding of a bad_alloc nothing caught.
void install_failed_allocation_handler();
std::uint32_t take_failed_allocation_stack();
// Where the running process's last exception was thrown: the interposed __cxa_throw
// (throw_sites.cpp) notes each throw's object and stack, without allocating. Called in a catch
// handler, take_throw_stack answers the stack's id of the exception being handled when it is the
// last thrown (0 otherwise, e.g. a std::rethrow_exception). Throws of the type set by
// ignore_throws_of (the runtime's own unwinding of a process it stops) are not noted: at a
// million processes that would be a million unwindings.
void note_throw(const void* object, const void* type);
std::uint32_t take_throw_stack();
void ignore_throws_of(const std::type_info& type);
// The stack of this function's caller (a sanitizer's report callback: the access it reports is
// below, in the program).
std::uint32_t capture_current_stack();
// In a signal handler: the stack of the code the signal interrupted, from the faulting
// instruction (0 outside a handler); trapped_after: the signal is a trap delivered after its
// instruction ran (a watchpoint's), so the interrupted IP is already the next instruction's.
std::uint32_t capture_interrupted_stack(bool trapped_after = false);

// The return address into the code that called the wrapper (the second frame of a captured stack;
// 0 without one). Comparing it tells two calls through the same wrapper line apart without
// symbolising (which reads the debug information): the checker's "same source line" questions.
std::uintptr_t wrapper_caller(std::uint32_t stack);

// A captured stack, symbolised, innermost (the wrapper's call of the primitive) first; `user` is
// the first frame of the program's own code: outside wrapper files and outside system libraries
// (/lib, /usr/lib) and the runtime (-1: none has a known file there).
struct SymbolisedStack {
  std::vector<StackFrame> frames;
  int user = -1;
};
const SymbolisedStack& symbolised_stack(std::uint32_t id);

}  // namespace bspcheck::rt
