// program_globals_notes.hpp: notes (not findings) about the globals of a bsp_init program that
// processes 1..p-1 see otherwise than process 0, printed at bsp_begin.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

namespace bspcheck::rt::program {

// The globals process 0 changed between bsp_init and bsp_begin (BSPlib 2.1 (4)).
void note_globals_changed_after_init(std::FILE* out);
// The globals main pointed at heap blocks before bsp_init, which every process then shares.
void note_shared_heap_pointers(std::FILE* out, const std::vector<std::uintptr_t>& globals);

}  // namespace bspcheck::rt::program
