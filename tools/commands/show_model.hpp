// show_model.hpp: what `bsp-check show` computes from a trace (docs/show.md): per superstep and
// process the BSPlib calls, the bytes and messages each process sends and receives, the
// h-relation and BSP cost of the superstep (BSPlib paper 5.1), and its E-BSP (M, k1, k2)-relation
// and locality L (Juurlink and Wijshoff, E-BSP, Definition 2). Also the machine parameters of the
// BSPlib paper's Table 1.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "replay/trace_format.hpp"

namespace bspcheck::show {

constexpr std::size_t kCalls = static_cast<std::size_t>(trace::Call::count_);

// How far apart two processes are for the locality L of E-BSP.
enum class Topology { linear, ring };

// What w_i of a superstep is.
enum class Work { zero, calls, measured };

struct Settings {
  std::uint64_t word_bytes = 4;  // Table 1 is for 32-bit words
  Topology topology = Topology::linear;
  bool tag_bytes = true;    // count the (inferred) tag bytes of bsp_send
  Work work = Work::zero;   // calls: w_i = the calls of process i; measured: its CPU time
  double flops_per_ns = 0;  // Work::measured: s / 1000 (s in Mflop/s)
};

struct ProcStep {
  std::array<std::uint64_t, kCalls> calls{};  // per trace::Call
  std::uint64_t ncalls = 0;
  std::uint64_t bytes_out = 0, bytes_in = 0;  // tag bytes of sends included if Settings::tag_bytes
  std::uint64_t msgs_out = 0, msgs_in = 0;    // communication operations (put, get, send, hp*)
  std::uint64_t tag_bytes_out = 0;            // inferred tag bytes among bytes_out
  // Messages addressed to the process, which a counting sync (cBSP_nsync, bspk_expect) of its
  // would count: puts, sends, BSPk stores to it, and gets and BSPk fetches it must serve.
  std::uint64_t count_in = 0;
  std::uint64_t work_ns = 0;  // measured CPU time (--measure-work), 0 if none
};

struct Superstep {
  int index = 0;
  // sync: a global barrier (bsp_sync, cBSP_gsync, bspk_sync without announcement); local: some
  // process left it without one (cBSP_nsync, a lazy bspk_sync).
  enum class Ends { sync, end, cut, local } ends = Ends::sync;
  int ahead = 0;  // how far the fastest process ran ahead while the slowest was in it
  std::vector<ProcStep> procs;
  std::uint64_t tagsize = 0;      // tag size in force (inferred from bsp_set_tagsize records)
  std::uint64_t sends = 0;        // bsp_send calls in the superstep
  std::uint64_t total_bytes = 0;  // all bytes communicated (sum of bytes_out)
  std::uint64_t total_msgs = 0;
  std::uint64_t h_bytes = 0;  // max over processes of max(bytes out, bytes in)
  std::uint64_t h_msgs = 0;   // the same, counting operations
  std::uint64_t h_words = 0;  // ceil(h_bytes / word_bytes)
  std::uint64_t w = 0;        // max over processes of w_i (0, the calls, or measured flops)
  std::uint64_t work_ns = 0;  // max over processes of the measured work
  // E-BSP, in words: M total, k1 max sent by a process, k2 max received by a process.
  std::uint64_t M = 0, k1 = 0, k2 = 0;
  std::uint64_t L = 0;            // max distance between the two ends of a transfer
  std::uint64_t pairs = 0;        // distinct (source, destination) pairs communicating
  std::uint64_t linear_time = 0;  // E-BSP Theorem 3: min(kmin L, M) + P - 2 (linear array), 0 if M = 0
};

struct Analysis {
  int p = 0;  // processes seen in call records (max pid + 1)
  std::uint64_t calls = 0;
  std::uint64_t sends = 0;
  std::uint64_t max_tagsize = 0;
  bool complete = false;
  // Supersteps are each process's own (local) ones when the program makes cBSP or BSPk calls: a
  // process's calls up to and including its k-th sync belong to superstep k. Else the trace's
  // barrier markers split them (the same for a BSPlib program).
  bool local_supersteps = false;
  bool measured = false;  // the trace has work records (--measure-work)
  int max_ahead = 0;      // the largest difference in superstep number between two processes
  std::vector<Superstep> steps;
  // Totals over supersteps.
  std::uint64_t W = 0, H_words = 0, H_bytes = 0, M = 0;
};

Analysis analyse(const trace::Reader& r, const Settings& s);

// cBSP's Table 3 measure over several runs of one program: is each receiver's incoming message
// count (ProcStep::count_in) of a superstep known, i.e. the same in every run? Runs with the same
// p are compared with each other (a count may depend on p); a superstep is known when every
// receiver's count is, in every group of runs with the same p, and that has it in all its runs.
struct CountGroup {
  int p = 0;
  std::size_t runs = 0;  // runs of this p that have the superstep
  bool known = true;
  std::vector<std::uint64_t> counts;   // per receiver, if known
  std::vector<int> unknown_receivers;  // receivers whose count differs between runs
  bool missing = false;                // some run of this p has no such superstep
};
struct CountStep {
  int index = 0;
  bool known = true;
  std::vector<CountGroup> groups;  // by p, ascending
};
struct CountTable {
  std::size_t runs = 0;
  std::vector<CountStep> steps;
  std::size_t known_steps() const;
};
CountTable known_counts(const std::vector<Analysis>& runs);

std::uint64_t distance(Topology t, int p, int a, int b);

// A row of Table 1 of the BSPlib paper (Hill, McColl et al.): s in Mflop/s, l and g in flop units.
struct MachineRow {
  const char* machine;
  const char* note;
  double s;
  int p;
  double l, g_local, g_global;
};
const std::vector<MachineRow>& machine_table();

// The machines matching a name (case and punctuation ignored; an exact name, else a unique
// substring): their distinct names. Empty: none.
std::vector<std::string> match_machines(const std::string& query);
// The row of machine name for p: the row with that p, else the nearest (ties: the larger p).
const MachineRow& machine_row(const std::string& machine, int p);

}  // namespace bspcheck::show
