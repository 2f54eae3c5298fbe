// registration_sync.hpp: what the barrier does with a superstep's bsp_push_reg and bsp_pop_reg
// calls (BSPlib 3.1). The k-th push of every process forms one registration slot; a pop names, on
// every process, the most recent live slot holding that process's address, and all must name the
// same slot. They are applied in program order (process 0's interleaving of pushes and pops).
// Disagreements are findings: different numbers of calls (after which nothing means anything:
// the run stops), unknown or mismatched pops, and, for the checker, slot and order hazards.
#pragma once

#include <vector>

#include "checker/checker.hpp"
#include "checker/diagnostics.hpp"
#include "engine/core/process.hpp"
#include "engine/core/registration_table.hpp"

namespace bspcheck::rt {

// Applies and clears every process's pushes and pops of this superstep. Returns false, after
// reporting reg-count-mismatch or reg-pop-mismatch, when the processes made different numbers
// of calls: the caller stops the run. rules may be null (checks off).
bool apply_registration_calls(ProcessTable& procs, RegistrationTable& regs, checker::Diagnostics& diag,
                              checker::Checker* rules, int superstep);

// "1", "1 and 2", "1, 2 and 3": processes named in a message.
std::string describe_pids(const std::vector<int>& pids);

}  // namespace bspcheck::rt
