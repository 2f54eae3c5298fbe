#include "replay/choice_script.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "runtime/base/rng.hpp"
#include "runtime/base/text_file.hpp"

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

ChoiceScript ChoiceScript::load(const std::string& path) {
  // Bounded: lines of a few words; a script as long as a huge run's choices fits 1 GiB, and a
  // device such as /dev/zero fails in its first block.
  std::istringstream in;
  try {
    in.str(rt::read_text_file(path, "choice script", std::size_t{1} << 30, 4096));
  } catch (const std::runtime_error& e) {
    throw TraceError(e.what());
  }
  ChoiceScript script;
  std::string kind, value;
  auto number = [&](const std::string& text) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 20)
      throw TraceError(path + ": bad number '" + text + "' in the choice script");
    try {
      return std::stoull(text);
    } catch (const std::out_of_range&) {
      throw TraceError(path + ": number '" + text + "' out of range in the choice script");
    }
  };
  while (in >> kind >> value) {
    if (kind == "random") {
      script.random_tail = true;
      script.tail_seed = number(value);
      continue;
    }
    const std::uint64_t k = number(kind);
    if (!rt::choice_kind_info(k)) throw TraceError(path + ": bad choice kind " + kind);
    Entry e{static_cast<std::uint8_t>(k), value != "-", 0};
    if (e.given) e.value = number(value);
    script.entries.push_back(e);
  }
  return script;
}

void ChoiceScript::save(const std::string& path) const {
  std::ofstream out(path);
  if (random_tail) out << "random " << tail_seed << '\n';
  for (const Entry& e : entries) {
    out << static_cast<unsigned>(e.kind) << ' ';
    if (e.given) out << e.value << '\n';
    else out << "-\n";
  }
}

ChoiceScript keep_choices(const std::vector<RecordedChoice>& choices, const std::vector<bool>& keep) {
  ChoiceScript script;
  for (std::size_t i = 0; i < choices.size(); ++i)
    script.entries.push_back({choices[i].kind, static_cast<bool>(keep[i]), keep[i] ? choices[i].value : 0});
  return script;
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

std::string deviation_text(std::size_t i, const OfferedChoice& c) {
  return "choice " + std::to_string(i + 1) + " (superstep " + std::to_string(c.superstep) +
         "): " + rt::choice_kind_text(c.kind) + " -> " + std::to_string(c.value) + " of " + std::to_string(c.n);
}

std::vector<std::string> describe_deviations(const std::vector<OfferedChoice>& offered, std::size_t limit) {
  std::vector<std::string> lines;
  std::size_t more = 0;
  for (std::size_t i = 0; i < offered.size(); ++i) {
    if (offered[i].value + 1 == offered[i].n) continue;
    if (lines.size() == limit) ++more;
    else lines.push_back(deviation_text(i, offered[i]));
  }
  if (more) lines.push_back("... and " + std::to_string(more) + " more non-default choices");
  return lines;
}

}  // namespace bspcheck::trace
