// program_report.hpp: the run's report in program mode (checker::RunReport), written for the
// bsp-check driver as JSON in the report file, or in the binary form through a fork server's page.
#pragma once

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::rt::program {

// Writes g_session.report as it is (after a finding outside the SPMD part was added to it).
void write_report_file();
// The run's report (once): the sections so far and the findings outside the SPMD part.
void write_report(bool completed);
// The report so far, written as each finding is printed (World's diagnostics call it).
void write_report_so_far();
// A finding before bsp_begin or after bsp_end: printed, and in the report.
void report_outside_spmd(Finding f);

}  // namespace bspcheck::rt::program
