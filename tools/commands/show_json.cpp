// show_json.cpp: `bsp-check show --json`: the text view's data for tools (docs/show.md, "JSON").
#include "tools/commands/show_views.hpp"

#include <algorithm>
#include <cmath>

namespace bspcheck::cli {

using json_t = show_json_t;
using show::Analysis;
using show::ProcStep;
using show::Superstep;

json_t to_json(const std::string& path, const trace::Header& h, const Analysis& a, const show::Settings& set,
               const Machine& m) {
  json_t j;
  j["format"] = "bsp-check-show";
  j["version"] = 1;
  j["trace"] = path;
  j["program"] = h.program;
  j["args"] = h.args;
  j["tool_version"] = h.tool_version;
  j["procs_available"] = h.procs;
  j["p"] = a.p;
  j["seed"] = h.seed;
  j["strategy"] = h.strategy;
  j["checks"] = h.checks;
  j["complete"] = a.complete;
  j["calls"] = a.calls;
  j["word_bytes"] = set.word_bytes;
  j["topology"] = topology_name(set.topology);
  j["work"] = set.work == show::Work::calls ? "calls" : set.work == show::Work::measured ? "measured" : "zero";
  j["measured_work"] = a.measured;
  j["local_supersteps"] = a.local_supersteps;
  j["max_ahead"] = a.max_ahead;
  j["tag_bytes"] = set.tag_bytes;
  j["sends"] = a.sends;
  j["max_tagsize"] = a.max_tagsize;
  json_t mj = nullptr;
  if (m.cost) {
    mj = {{"g", m.g}, {"l", m.l}};
    if (m.s) mj["s"] = *m.s;
    if (m.row) {
      mj["name"] = m.row->machine;
      mj["row_p"] = m.row->p;
      mj["for_p"] = m.row_for_p;
      mj["exact"] = m.row->p == m.row_for_p;
      mj["g_kind"] = m.g_kind;
    }
  }
  j["machine"] = mj;
  j["supersteps"] = json_t::array();
  double total_cost = 0;
  for (const Superstep& st : a.steps) {
    json_t s;
    s["index"] = st.index;
    s["ends"] = ends_name(st.ends);
    s["tagsize"] = st.tagsize;
    s["processes"] = json_t::array();
    for (std::size_t pid = 0; pid < st.procs.size(); ++pid) {
      const ProcStep& ps = st.procs[pid];
      s["processes"].push_back({{"pid", pid},
                                {"calls", calls_json(ps)},
                                {"ncalls", ps.ncalls},
                                {"bytes_out", ps.bytes_out},
                                {"bytes_in", ps.bytes_in},
                                {"messages_out", ps.msgs_out},
                                {"messages_in", ps.msgs_in},
                                {"tag_bytes_out", ps.tag_bytes_out},
                                {"count_in", ps.count_in},
                                {"work_ns", a.measured ? json_t(ps.work_ns) : json_t(nullptr)}});
    }
    s["total_bytes"] = st.total_bytes;
    s["total_messages"] = st.total_msgs;
    s["h_bytes"] = st.h_bytes;
    s["h_words"] = st.h_words;
    s["h_messages"] = st.h_msgs;
    s["w"] = st.w;
    s["work_ns"] = a.measured ? json_t(st.work_ns) : json_t(nullptr);
    s["ahead"] = st.ahead;
    if (m.cost) {
      const double c = step_cost(st, m);
      total_cost += c;
      s["cost"] = c;
      if (m.s) s["time_seconds"] = c / (*m.s * 1e6);
    } else {
      s["cost"] = nullptr;
    }
    s["ebsp"] = {{"M", st.M}, {"k1", st.k1},       {"k2", st.k2},
                 {"L", st.L}, {"pairs", st.pairs}, {"linear_array_time", st.linear_time}};
    j["supersteps"].push_back(std::move(s));
  }
  json_t t = {{"supersteps", a.steps.size()}, {"W", a.W}, {"H_words", a.H_words}, {"H_bytes", a.H_bytes}, {"M", a.M}};
  t["cost"] = m.cost ? json_t(total_cost) : json_t(nullptr);
  if (m.cost && m.s) t["time_seconds"] = total_cost / (*m.s * 1e6);
  j["totals"] = t;
  return j;
}

json_t counting_json(const show::CountTable& t) {
  json_t j;
  j["runs"] = t.runs;
  j["supersteps"] = t.steps.size();
  j["known_supersteps"] = t.known_steps();
  j["known_share"] = t.steps.empty()
                         ? json_t(nullptr)
                         : json_t(static_cast<double>(t.known_steps()) / static_cast<double>(t.steps.size()));
  j["steps"] = json_t::array();
  for (const show::CountStep& st : t.steps) {
    json_t groups = json_t::array();
    for (const show::CountGroup& g : st.groups)
      groups.push_back({{"p", g.p},
                        {"runs", g.runs},
                        {"known", g.known},
                        {"counts", g.known ? json_t(g.counts) : json_t(nullptr)},
                        {"unknown_receivers", g.unknown_receivers},
                        {"missing_in_some_runs", g.missing}});
    j["steps"].push_back({{"index", st.index}, {"known", st.known}, {"groups", groups}});
  }
  return j;
}

}  // namespace bspcheck::cli
