// show_format.cpp: the formatters the views of `bsp-check show` share, and Table 1 listed.
#include "tools/commands/show_views.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string_view>

namespace bspcheck::cli {

using json_t = show_json_t;
using show::Analysis;
using show::ProcStep;
using show::Superstep;

const char* short_name(trace::Call c) {
  const char* n = trace::call_name(c);
  return std::string_view(n).starts_with("bsp_") ? n + 4 : n;
}

const char* ends_name(Superstep::Ends e) {
  switch (e) {
    case Superstep::Ends::sync:
      return "sync";
    case Superstep::Ends::end:
      return "end";
    case Superstep::Ends::cut:
      return "cut";
    case Superstep::Ends::local:
      return "local";
  }
  return "?";
}

std::string fmt(double v) {  // up to 6 significant digits, no trailing zeros
  if (std::isfinite(v) && std::fabs(v) < 1e15 && v == std::floor(v)) {
    std::ostringstream o;
    o << static_cast<long long>(v);
    return o.str();
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string fmt_time(double seconds) {
  char buf[64];
  if (seconds >= 1) std::snprintf(buf, sizeof buf, "%.4g s", seconds);
  else if (seconds >= 1e-3) std::snprintf(buf, sizeof buf, "%.4g ms", seconds * 1e3);
  else std::snprintf(buf, sizeof buf, "%.4g us", seconds * 1e6);
  return buf;
}

double step_cost(const Superstep& st, const Machine& m) {
  return static_cast<double>(st.w) + static_cast<double>(st.h_words) * m.g + m.l;
}

std::string plural(std::uint64_t n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}
std::string words(std::uint64_t n) { return plural(n, "word"); }

std::string calls_text(const ProcStep& ps) {
  std::string out;
  for (std::size_t c = 0; c < show::kCalls; ++c)
    if (ps.calls[c]) {
      if (!out.empty()) out += ", ";
      out += std::string(short_name(static_cast<trace::Call>(c))) + " " + std::to_string(ps.calls[c]);
    }
  return out.empty() ? "-" : out;
}

json_t calls_json(const ProcStep& ps) {
  json_t j = json_t::object();
  for (std::size_t c = 0; c < show::kCalls; ++c)
    if (ps.calls[c]) j[short_name(static_cast<trace::Call>(c))] = ps.calls[c];
  return j;
}

std::string topology_name(show::Topology t) { return t == show::Topology::ring ? "ring" : "linear"; }

int list_machines() {
  std::cout << "BSP machine parameters, Table 1 of the BSPlib paper (s in Mflop/s for single-precision\n"
               "float operations; l and g in flop units; g for 32-bit words):\n\n";
  std::printf("%-45s %6s %5s %9s %9s %9s\n", "machine", "s", "p", "l", "g local", "g global");
  for (const show::MachineRow& r : show::machine_table()) {
    std::string name = r.machine;
    if (*r.note) name += std::string(" (") + r.note + ")";
    std::printf("%-45s %6s %5d %9s %9s %9s\n", name.c_str(), fmt(r.s).c_str(), r.p, fmt(r.l).c_str(),
                fmt(r.g_local).c_str(), fmt(r.g_global).c_str());
  }
  return 0;
}

}  // namespace bspcheck::cli
