// program_globals_notes.cpp: notes about a bsp_init program's globals, named by their symbols.
#include "engine/host/program_globals_notes.hpp"

#include <memory>
#include <string>

#include "engine/host/program_session.hpp"
#include "runtime/executable/executable_symbols.hpp"
#include "runtime/executable/program_image.hpp"

namespace bspcheck::rt::program {

namespace {

// The program's variable at `address` by its symbol, without "+offset"; "" for unnamed bytes and
// the C library's own copies (stdout, optind...: "name@GLIBC"), which are not the program's.
std::string program_variable(const ElfSymbols& symbols, std::uintptr_t address) {
  std::string name = symbols.name(address);
  if (const std::size_t plus = name.rfind('+'); plus != std::string::npos) name.resize(plus);
  return name.find('@') == std::string::npos ? name : std::string();
}

// Adds a variable's name to a note's list, once for the run of bytes it names.
void add_variable(std::vector<std::string>& names, std::string name) {
  if (!name.empty() && (names.empty() || names.back() != name)) names.push_back(std::move(name));
}

// "`a`, `b`, `c`, `d`, `e` and 3 more": a note's list of variables.
std::string variable_list(const std::vector<std::string>& names) {
  std::string list;
  for (std::size_t k = 0; k < names.size() && k < 5; ++k) list += (k ? ", `" : "`") + names[k] + "`";
  if (names.size() > 5) list += " and " + std::to_string(names.size() - 5) + " more";
  return list;
}

}  // namespace

// bsp_init programs: the globals process 0 changed between bsp_init and bsp_begin, which
// processes 1..p-1 do not see (BSPlib 2.1 (4)) although under MulticoreBSP, whose processes are
// threads, they would. A note, not a finding: the program is correct if only process 0 uses them.
void note_globals_changed_after_init(std::FILE* out) {
  const ProgramImage& image = program_image();
  if (g_session.globals_at_init.size() != image.total) return;
  std::vector<std::string> names;
  std::shared_ptr<const ElfSymbols> symbols;
  std::size_t at = 0;
  for (const PrivateRange& r : image.ranges) {
    for (std::size_t i = 0; !r.thread_local_block && i < r.size; ++i) {
      i += equal_prefix_raw(r.lo + i, g_session.globals_at_init.data() + at + i,
                            r.size - i);  // (redzones: uninstrumented)
      if (i >= r.size) break;
      if (!symbols) symbols = executable_symbols();
      add_variable(names, program_variable(*symbols, reinterpret_cast<std::uintptr_t>(r.lo + i)));
    }
    at += r.size;
  }
  if (names.empty()) return;
  std::fprintf(out,
               "bsp-check: note: process 0 changed %s after bsp_init; processes 1..p-1 see the values of "
               "the bsp_init call, as with BSPonMPI or the Oxford toolset (under MulticoreBSP they would "
               "see the new ones): send such values if the other processes need them\n",
               variable_list(names).c_str());
}

// bsp_init programs: the globals main pointed at heap blocks before bsp_init, which every process
// then shares (PrivateGlobals::on_shared_heap_pointers). Against BSPlib 2.1 (6), which has bsp_init
// be main's first statement, but easy to write; under BSPonMPI each process would have its own
// block. A note: the program is correct if no process writes the block (or frees it).
void note_shared_heap_pointers(std::FILE* out, const std::vector<std::uintptr_t>& globals) {
  const std::shared_ptr<const ElfSymbols> symbols = executable_symbols();
  std::vector<std::string> names;
  for (std::uintptr_t a : globals) add_variable(names, program_variable(*symbols, a));
  if (names.empty()) return;
  std::fprintf(out,
               "bsp-check: note: main pointed %s at heap memory before bsp_init; every process starts with "
               "that pointer, so they share the memory here (under BSPonMPI or the Oxford toolset each would "
               "allocate its own): allocate it in the SPMD function, after bsp_begin\n",
               variable_list(names).c_str());
}

}  // namespace bspcheck::rt::program
