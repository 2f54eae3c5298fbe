// finding_text.hpp: the one text form of a finding, the compiler-style lines users read, printed
// by the runtime as findings happen and by the driver (summaries, reports' bodies):
//   bsp-check: error[bounds-put]: superstep 3: process 2 writes bytes 16..32 of a 16-byte area
//   on process 3
//     at put.c:14 (bsp_put, process 2)
//     rule: a put may not write past the end of the target's registered area (BSPlib 3.2.4 (3))
//     reproduce: bsp-check run -p 4 --seed 7 ./put
#pragma once

#include <string>
#include <vector>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::checker {

// The lines above; the reproduce line only when `repro` is not empty.
std::string render_finding(const Finding& f, const std::string& repro);
// "error[bounds-put]": the severity and rule, as every text form of a finding starts.
std::string finding_label(const Finding& f);
// "error[bounds-put]: superstep 3: process 2 writes ...": the first line without "bsp-check: "
// (JUnit's failure message).
std::string finding_headline(const Finding& f);
// A finding outside the SPMD part (before bsp_begin, after bsp_end), as the program prints it
// when it happens: "bsp-check: error[api-misuse]: bsp_pid called before bsp_begin at f.c:3" (no
// superstep, and its call site is in the message), then the rule's and the reproduce line.
std::string render_finding_outside_spmd(const Finding& f, const std::string& repro);
// "put.c:14 (bsp_put, process 2)": one location as the "at" line shows it, after "at ".
std::string location_text(const Location& l);
// The stack of a call made through a wrapper, one "      #k function at file:line" line per
// frame; render_finding prints it under the location, after "    called through a wrapper:".
std::string stack_text(const std::vector<StackFrame>& stack);
// "file:line" of each location, without processes, distinct, joined by ", " (or "<unknown>").
std::string finding_where(const Finding& f);
// Does this finding fail its run? Errors do, and with werror warnings too.
inline bool finding_fails(const Finding& f, bool werror) { return werror || f.severity == Severity::error; }

}  // namespace bspcheck::checker
