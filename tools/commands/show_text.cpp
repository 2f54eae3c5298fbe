// show_text.cpp: `bsp-check show`'s text view: the run superstep by superstep, its costs, and the
// counting synchronisation (docs/show.md).
#include "tools/commands/show_views.hpp"

#include <algorithm>
#include <cmath>

namespace bspcheck::cli {

using json_t = show_json_t;
using show::Analysis;
using show::ProcStep;
using show::Superstep;

namespace {

// The run and the settings its numbers depend on: program, p, word, work, machine, notes.
void print_header(std::ostream& o, const std::string& path, const trace::Header& h, const Analysis& a,
                  const show::Settings& set, const Machine& m) {
  o << "trace: " << path << " (" << (a.complete ? "complete" : "cut off: no end record, the run stopped early") << ", "
    << a.calls << " BSPlib calls, " << a.steps.size() << " supersteps)\n";
  o << "program: " << (h.program.empty() ? "(in-process run)" : h.program);
  for (const std::string& arg : h.args) o << " " << arg;
  o << "\n";
  o << "p = " << a.p << " (processes seen; " << h.procs << " available), seed " << h.seed << ", strategy " << h.strategy
    << "\n";
  o << "word = " << set.word_bytes << " bytes; work w = "
    << (set.work == show::Work::calls      ? "max over processes of their calls"
        : set.work == show::Work::measured ? "max over processes of their measured CPU time, in flops at s"
                                           : "0")
    << "; locality on a "
    << (set.topology == show::Topology::ring ? "ring (distance min(|d-s|, p-|d-s|))" : "linear array (distance |d-s|)")
    << "\n";
  if (m.cost) {
    o << "machine: ";
    if (m.row) {
      o << m.row->machine << (*m.row->note ? std::string(" (") + m.row->note + ")" : std::string())
        << ", Table 1 row p = " << m.row->p;
      if (m.row->p == m.row_for_p) o << " (exact)";
      else o << " (nearest to p = " << m.row_for_p << ")";
      o << ", g " << m.g_kind << "; ";
    }
    o << "g = " << fmt(m.g) << ", l = " << fmt(m.l) << " flop units";
    if (m.s) o << ", s = " << fmt(*m.s) << " Mflop/s";
    o << "\n";
  } else {
    o << "machine: none given (--machine, or --g and --l): costs are shown as w + h*g + l\n";
  }
  if (a.local_supersteps)
    o << "supersteps: each process's own (cBSP/BSPk: processes may be in different ones); " <<
        [&] {
          std::size_t n = 0;
          for (const Superstep& st : a.steps) n += st.ends == Superstep::Ends::local;
          return plural(n, "superstep");
        }()
      << " ended without a global barrier; processes ran up to "
      << plural(static_cast<std::uint64_t>(a.max_ahead), "superstep") << " ahead of each other\n";
  if (a.measured) o << "work: measured CPU time per process and superstep (--measure-work)\n";
  if (a.sends > 0) {
    o << "note: the trace records the payload size of bsp_send, not its tag; ";
    if (!set.tag_bytes) o << "tag bytes are not counted (--no-tag-bytes)\n";
    else if (a.max_tagsize == 0)
      o << "the tag size stays 0 (no bsp_set_tagsize changes it), so sends are payload only\n";
    else
      o << "the tag bytes counted here are inferred from the bsp_set_tagsize records (tag size up to " << a.max_tagsize
        << " bytes)\n";
  }
}

// One superstep in full: every process's bytes, messages, work and calls, then h, the BSP cost
// and the E-BSP relation. `c` is its cost (when the machine is known).
void print_superstep(std::ostream& o, const Analysis& a, const Superstep& st, const show::Settings& set,
                     const Machine& m, double c) {
  o << "\nsuperstep " << st.index << " (ends at "
    << (st.ends == Superstep::Ends::sync    ? (a.local_supersteps ? "a global barrier" : "bsp_sync")
        : st.ends == Superstep::Ends::local ? "a sync without a global barrier"
        : st.ends == Superstep::Ends::end   ? "bsp_end"
                                            : "the end of the trace: cut off")
    << ")";
  if (st.ahead > 0)
    o << "; while in it, others ran up to " << plural(static_cast<std::uint64_t>(st.ahead), "superstep") << " ahead";
  o << "\n";
  o << "  pid   bytes out (msgs)   bytes in (msgs)" << (a.measured ? "   work (us)" : "") << "  calls\n";
  for (std::size_t pid = 0; pid < st.procs.size(); ++pid) {
    const ProcStep& ps = st.procs[pid];
    const std::string out = std::to_string(ps.bytes_out) + " (" + std::to_string(ps.msgs_out) + ")";
    const std::string in = std::to_string(ps.bytes_in) + " (" + std::to_string(ps.msgs_in) + ")";
    char line[160];
    std::snprintf(line, sizeof line, "  %-4zu %17s %17s  ", pid, out.c_str(), in.c_str());
    o << line;
    if (a.measured) {
      std::snprintf(line, sizeof line, "%10.1f  ", static_cast<double>(ps.work_ns) / 1e3);
      o << line;
    }
    o << calls_text(ps) << "\n";
  }
  o << "  h = " << st.h_bytes << " bytes = " << words(st.h_words) << " (" << plural(st.h_msgs, "message") << "); total "
    << st.total_bytes << " bytes in " << plural(st.total_msgs, "message") << "\n";
  o << "  BSP cost w + h*g + l = ";
  if (m.cost) {
    o << st.w << " + " << st.h_words << "*" << fmt(m.g) << " + " << fmt(m.l) << " = " << fmt(c) << " flops";
    if (m.s) o << " = " << fmt_time(c / (*m.s * 1e6));
  } else {
    o << st.w << " + " << st.h_words << "g + l";
  }
  if (a.measured) o << " (measured work: max " << fmt(static_cast<double>(st.work_ns) / 1e3) << " us)";
  o << "\n";
  o << "  E-BSP: (M, k1, k2) = (" << st.M << ", " << st.k1 << ", " << st.k2 << ") words, locality L = " << st.L << " ("
    << st.pairs << " communicating pairs)";
  if (set.topology == show::Topology::linear && st.M > 0)
    o << "; linear-array routing time min(kmin*L, M) + p - 2 = " << st.linear_time;
  o << "\n";
}

// --brief: one line per superstep.
void print_superstep_line(std::ostream& o, const Superstep& st, const Machine& m, double c) {
  o << "superstep " << st.index << " (" << ends_name(st.ends) << "): h = " << st.h_bytes
    << " B = " << words(st.h_words);
  if (m.cost) o << ", cost " << fmt(c);
  o << ", (M, k1, k2) = (" << st.M << ", " << st.k1 << ", " << st.k2 << "), L = " << st.L << "\n";
}

}  // namespace

void print_text(std::ostream& o, const std::string& path, const trace::Header& h, const Analysis& a,
                const show::Settings& set, const Machine& m, bool brief) {
  print_header(o, path, h, a, set, m);
  double total_cost = 0;
  for (const Superstep& st : a.steps) {
    const double c = m.cost ? step_cost(st, m) : 0;
    total_cost += c;
    if (brief) print_superstep_line(o, st, m, c);
    else print_superstep(o, a, st, set, m, c);
  }
  o << "\ntotal: " << a.steps.size() << " supersteps, W = " << a.W << ", H = " << a.H_words << " words (" << a.H_bytes
    << " bytes), M = " << a.M << " words\n";
  o << "BSP cost W + H*g + S*l = ";
  if (m.cost) {
    o << a.W << " + " << a.H_words << "*" << fmt(m.g) << " + " << a.steps.size() << "*" << fmt(m.l) << " = "
      << fmt(total_cost) << " flops";
    if (m.s) o << " = " << fmt_time(total_cost / (*m.s * 1e6)) << " at " << fmt(*m.s) << " Mflop/s";
  } else {
    o << a.W << " + " << a.H_words << "g + " << a.steps.size() << "l";
  }
  o << "\n";
}

void print_counting(std::ostream& o, const show::CountTable& t) {
  const std::size_t known = t.known_steps();
  o << "\ncounting synchronisation (cBSP's Table 3), over " << plural(t.runs, "run") << ": " << known << " of "
    << plural(t.steps.size(), "superstep") << " ("
    << (t.steps.empty()
            ? 0
            : static_cast<int>(100.0 * static_cast<double>(known) / static_cast<double>(t.steps.size()) + 0.5))
    << "%) with every receiver's incoming message count known (the same in every run of a p)";
  if (t.runs < 2) o << "; one run says nothing: give several traces (seeds, p) of the program";
  o << "\n";
  for (const show::CountStep& st : t.steps) {
    o << "  superstep " << st.index << ": " << (st.known ? "known" : "not known");
    for (const show::CountGroup& g : st.groups) {
      o << "; p = " << g.p << ": ";
      if (g.known) {
        o << "counts";
        for (std::uint64_t c : g.counts) o << " " << c;
      } else if (g.missing) {
        o << "not in every run";
      } else {
        o << "receiver" << (g.unknown_receivers.size() > 1 ? "s" : "");
        for (std::size_t i = 0; i < g.unknown_receivers.size(); ++i) o << (i ? ", " : " ") << g.unknown_receivers[i];
        o << " differ";
      }
    }
    o << "\n";
  }
}

}  // namespace bspcheck::cli
