#include "replay/choice_script.hpp"

#include <cstdio>
#include <fstream>

namespace bspcheck::trace {

std::vector<RecordedChoice> recorded_choices(const Reader& trace) {
  std::vector<RecordedChoice> choices;
  std::uint64_t superstep = 0;
  int pid = 0;
  std::string call = "bsp_begin";
  for (const Event& e : trace.events()) {
    if (e.type == Event::superstep) superstep = e.value;
    else if (e.type == Event::call) pid = static_cast<int>(e.rec.pid), call = call_name(e.rec.call);
    else if (e.type == Event::choice) choices.push_back({e.kind, e.value, superstep, pid, call});
  }
  return choices;
}

const char* choice_kind_text(unsigned kind) {
  switch (kind) {
    case 1: return "next process";
    case 2: return "message order";
    case 3: return "write order";
    case 4: return "hp timing";
    case 5: return "time";
    case 6: return "processes granted";
    default: return "choice";
  }
}

void write_choice_script(const std::string& path, const std::vector<RecordedChoice>& choices,
                         const std::vector<bool>& keep) {
  std::ofstream out(path);
  for (std::size_t i = 0; i < choices.size(); ++i) {
    out << static_cast<unsigned>(choices[i].kind) << ' ';
    if (keep[i]) out << choices[i].value << '\n';
    else out << "-\n";
  }
}

std::vector<OfferedChoice> read_choice_log(const std::string& path) {
  std::vector<OfferedChoice> points;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    OfferedChoice pt{};
    unsigned long long superstep = 0;
    // A run that crashed may have left its last line half written: it ends the log.
    if (std::sscanf(line.c_str(), "%u %u %u %llu", &pt.kind, &pt.n, &pt.value, &superstep) < 3) break;
    pt.superstep = superstep;
    points.push_back(pt);
  }
  return points;
}

}  // namespace bspcheck::trace
