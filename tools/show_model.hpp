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

struct Settings {
  std::uint64_t word_bytes = 4;  // Table 1 is for 32-bit words
  Topology topology = Topology::linear;
  bool tag_bytes = true;         // count the (inferred) tag bytes of bsp_send
  bool work_calls = false;       // w_i = the BSPlib calls of process i (else w = 0)
};

struct ProcStep {
  std::array<std::uint64_t, kCalls> calls{};  // per trace::Call
  std::uint64_t ncalls = 0;
  std::uint64_t bytes_out = 0, bytes_in = 0;  // tag bytes of sends included if Settings::tag_bytes
  std::uint64_t msgs_out = 0, msgs_in = 0;    // communication operations (put, get, send, hp*)
  std::uint64_t tag_bytes_out = 0;            // inferred tag bytes among bytes_out
};

struct Superstep {
  int index = 0;
  enum class Ends { sync, end, cut } ends = Ends::sync;
  std::vector<ProcStep> procs;
  std::uint64_t tagsize = 0;      // tag size in force (inferred from bsp_set_tagsize records)
  std::uint64_t sends = 0;        // bsp_send calls in the superstep
  std::uint64_t total_bytes = 0;  // all bytes communicated (sum of bytes_out)
  std::uint64_t total_msgs = 0;
  std::uint64_t h_bytes = 0;      // max over processes of max(bytes out, bytes in)
  std::uint64_t h_msgs = 0;       // the same, counting operations
  std::uint64_t h_words = 0;      // ceil(h_bytes / word_bytes)
  std::uint64_t w = 0;            // max over processes of w_i (0, or the BSPlib calls)
  // E-BSP, in words: M total, k1 max sent by a process, k2 max received by a process.
  std::uint64_t M = 0, k1 = 0, k2 = 0;
  std::uint64_t L = 0;            // max distance between the two ends of a transfer
  std::uint64_t pairs = 0;        // distinct (source, destination) pairs communicating
  std::uint64_t linear_time = 0;  // E-BSP Theorem 3: min(kmin L, M) + P - 2 (linear array), 0 if M = 0
};

struct Analysis {
  int p = 0;                      // processes seen in call records (max pid + 1)
  std::uint64_t calls = 0;
  std::uint64_t sends = 0;
  std::uint64_t max_tagsize = 0;
  bool complete = false;
  std::vector<Superstep> steps;
  // Totals over supersteps.
  std::uint64_t W = 0, H_words = 0, H_bytes = 0, M = 0;
};

Analysis analyse(const trace::Reader& r, const Settings& s);

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
