// dialect.hpp: which BSPlib's interface a program began through, and what follows from it where
// the libraries' semantics differ (docs/dialects.md). One value, asked by property, instead of a
// flag that meant both "shares globals" and "is MulticoreBSP".
#pragma once

namespace bspcheck::rt {

enum class Dialect {
  classic,  // BSPlib (Oxford, BSPonMPI, the BSPlib 1.x names): one bsp_begin/bsp_end per program
  mcbsp,    // MulticoreBSP for C 2.x: its bsp_begin was called (engine/frontends/mcbsp_api.cpp)
};

// Its processes are threads, which share the program's globals, unless globals= is chosen.
constexpr bool shares_globals(Dialect d) { return d == Dialect::mcbsp; }
// Another SPMD section may follow bsp_end (a bsp_begin starts the threads again), and a
// bsp_begin inside a section is a nested section rather than a second pair.
constexpr bool sections_in_a_row(Dialect d) { return d == Dialect::mcbsp; }

// The program's dialect: classic until a front end says otherwise before its bsp_begin.
void begin_in_dialect(Dialect d);
Dialect program_dialect();

}  // namespace bspcheck::rt
