// show_views.hpp: the views of `bsp-check show` over an analysed run (show_model.hpp): the text
// (show_text.cpp), the JSON (show_json.cpp) and the Chrome timeline (show_chrome.cpp), the
// machine parameters that turn costs into numbers, and the formatters the views share
// (show_format.cpp).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "replay/trace_format.hpp"
#include "tools/commands/show_model.hpp"

namespace bspcheck::cli {

using show_json_t = nlohmann::ordered_json;

// g, l and s: from Table 1 of the BSPlib paper (--machine) or the command line.
struct Machine {
  bool cost = false;  // g and l known: costs are numbers
  double g = 0, l = 0;
  std::optional<double> s;  // Mflop/s: times in seconds
  const show::MachineRow* row = nullptr;
  std::string g_kind = "global";
  int row_for_p = 0;  // the p the row was chosen for
};

// Formatters.
const char* short_name(trace::Call c);  // "put" for bsp_put
const char* ends_name(show::Superstep::Ends e);
std::string fmt(double v);                                      // up to 6 significant digits, no trailing zeros
std::string fmt_time(double seconds);                           // "1.5 ms"
double step_cost(const show::Superstep& st, const Machine& m);  // w + h*g + l
std::string plural(std::uint64_t n, const std::string& what);
std::string words(std::uint64_t n);
std::string calls_text(const show::ProcStep& ps);  // "put 2, sync 1"
show_json_t calls_json(const show::ProcStep& ps);
std::string topology_name(show::Topology t);

// The views.
void print_text(std::ostream& o, const std::string& path, const trace::Header& h, const show::Analysis& a,
                const show::Settings& set, const Machine& m, bool brief);
void print_counting(std::ostream& o, const show::CountTable& t);
show_json_t to_json(const std::string& path, const trace::Header& h, const show::Analysis& a, const show::Settings& set,
                    const Machine& m);
show_json_t counting_json(const show::CountTable& t);
show_json_t chrome_trace(const trace::Header& h, const trace::Reader& r, const show::Analysis& a, const Machine& m);
// --list-machines: Table 1, printed.
int list_machines();

}  // namespace bspcheck::cli
