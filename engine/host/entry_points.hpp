// entry_points.hpp: how a BSPlib computation starts, in each of the two ways a world can be
// created: an in-process run (bspcheck::run) or a program linked with the runtime.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "bspcheck/bspcheck.hpp"
#include "runtime/fibers/context_switch.hpp"
#include "engine/core/output_capture.hpp"
#include "runtime/base/site.hpp"
#include "engine/core/world.hpp"
#include "engine/host/dialect.hpp"

namespace bspcheck::rt {

// An in-process run between bspcheck::run and the end of its processes.
struct Launch {
  Options options;
  std::function<void()> body;
  ContextSlot host;      // the thread that called bspcheck::run
  ContextSlot process0;  // the fiber process 0 starts on
  FiberStack stack0;     // its stack
  std::unique_ptr<World> world;
  std::unique_ptr<OutputCapture> capture;
  std::vector<Finding> findings;         // misuse before bsp_begin or after bsp_end
  const GuideInMemory* guide = nullptr;  // an in-process search's schedule
};

Launch* active_launch();

// bspcheck::run, steered by `guide` when it is not null (the in-process searches).
RunResult run_in_process(const Options& options, const std::function<void()>& spmd, const GuideInMemory* guide);

// bsp_begin for the first time in this run; site is the call's location.
void begin_in_process(Launch& launch, int maxprocs, const Site& site);
void begin_program(int maxprocs, const Site& site);
// Process 0 passed bsp_end in a program: report, restore the streams, destroy the world.
void end_program();

// Processors available before bsp_begin (bsp_nprocs called before bsp_begin).
int available_processors();

// A primitive was called while no BSPlib computation runs.
void misuse_outside_spmd(const char* call, const Site& site);
// bsp_abort while no BSPlib computation runs: not a misuse (BSPlib has it halt "the entire BSPlib
// program", and programs check their arguments before bsp_begin), an abort finding in the report.
void abort_outside_spmd(const char* message, const Site& site);

}  // namespace bspcheck::rt
