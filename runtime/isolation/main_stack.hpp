// main_stack.hpp: the main thread's stack below a frame, cleared as a fresh stack would read.
//
// Why: process 0 runs on the main thread's stack, and what lies below its frame is what ran there
// before it, which differs between a plain run and a worker of the fork server (the dynamic
// loader's frames, the server's). bsp_begin clears it (engine/frontends/begin_entry.cpp), and a worker
// clears it once before saving its moment, so that the moment saves zeros instead of a copy of
// that garbage for every run to restore.
#pragma once

#include <cstdint>

namespace bspcheck::rt {

// Zeros the main thread's stack from the low end of its mapping up to `below` rounded down to a
// page, writing only the pages that are resident (the others read as zeros already). Returns the
// page boundary it cleared up to, or 0 when `below` is not on the main thread's stack. The
// caller's frames and those of what it calls must lie above `below`.
std::uintptr_t clear_main_stack_pages_below(std::uintptr_t below);

// The lowest page of the main stack's mapping, given one of its pages `hi` and the lowest address
// it may reach, `floor` (page-aligned, below hi): the stack is one mapping with nothing else within
// its reach, so mincore's "not mapped" divides the range in two and a bisection finds the end.
// Also how a worker's snapshot finds how far a run grew the stack (runtime/isolation/snapshot_plan.cpp).
// errno may change.
std::uintptr_t main_stack_lowest_page(std::uintptr_t hi, std::uintptr_t floor);

}  // namespace bspcheck::rt
