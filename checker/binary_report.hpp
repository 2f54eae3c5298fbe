// binary_report.hpp: a run's report (checker::RunReport) in a compact binary form, the one a fork
// server's worker hands the driver through the channel they share (runtime/isolation/fork_server.cpp,
// tools/launch/fork_server_client.cpp). JSON (finding_codec.hpp) stays the form of every file a user
// may read (BSPCHECK_OPTIONS=report=..., the driver's --json); this one is for the driver alone,
// which reads a report per run: building and parsing a JSON document was about a tenth of the
// CPU time of a small program's run under `bsp-check run --seeds`.
//
// Layout: the magic "BSPB", a version byte, then the fields of RunReport in declaration order.
// Integers are LEB128 varints (signed ones zigzag-encoded), a digest is 8 bytes little-endian,
// a string is its length then its bytes, a list its length then its entries. A finding is rule,
// severity (0 warning, 1 error), message, processes, superstep, locations; a location is file,
// line, process, call, stack; a frame is function, file, line.
//
// Strings are valid UTF-8 as they would be in the JSON report: invalid sequences are replaced
// with U+FFFD as nlohmann::json's `replace` handler does, so a report reads the same whichever
// way it travelled.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "checker/finding_codec.hpp"

namespace bspcheck::checker {

std::string run_report_to_bytes(const RunReport& r);
// The same form written into buf (at most cap bytes) without allocating, for a report written
// while the program runs (its heap must not depend on what the report holds): r's fields (r has
// called bsp_begin: nprocs > 0), its findings being those of the lists given, in order. The
// bytes written; 0 when they do not fit.
std::size_t run_report_to_buffer(const RunReport& r, std::initializer_list<const std::vector<Finding>*> findings,
                                 char* buf, std::size_t cap);
// False when `bytes` is not a whole report in this form (another version, cut short, garbage):
// every length is checked against what is left, so a bad report never reads past its end nor
// allocates more than its own size would need.
bool run_report_from_bytes(std::string_view bytes, RunReport& out);
// Whether `bytes` begins as a report in this form does (as opposed to a JSON report).
bool is_binary_report(std::string_view bytes);

}  // namespace bspcheck::checker
