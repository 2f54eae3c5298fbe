// fork_server.hpp: many runs of one program without paying for exec and dynamic loading each
// time. When the driver sets BSPCHECK_FORKSERVER, the program's first bsp_begin does not start a
// run: it serves requests from the driver; a forked child continues from bsp_begin with a run's
// options and output files, as if the program had just been started. A child is a worker that
// makes many runs in turn, taking each request from a page it shares with the driver: at the end
// of each it is brought back to bsp_begin as it was (runtime/isolation/process_snapshot.hpp), and only a
// run that crashed, or left the process in a state that cannot be undone, costs a fresh fork. What main did before
// bsp_begin happens once (its output goes to the server's own files).
#pragma once

#include <string>
#include <string_view>

namespace bspcheck::rt {

// Called at the start of the program's first bsp_begin. Returns at once when no fork server was
// requested, returns in each child with its run's environment set, and never returns in the
// server itself (it exits when the driver closes the session pipe).
void serve_forks_if_requested();

// The end of a run with this exit status. In a worker: writes what the run left buffered,
// tells the driver and brings the worker back to bsp_begin for the next run. Returns when the
// process is no worker, or one that cannot come back (the caller then exits as usual).
void finish_served_run(int exit_status);

// Whether this process makes a worker's run, whose report goes to the driver through the page
// they share (deliver_report) rather than to BSPCHECK_REPORT's file.
bool delivers_reports();

// In a worker's run: hands the run's report, in its binary form (checker/binary_report.hpp), to
// the driver through the page they share, instead of a file (3 system calls); false when this
// process is no worker or the report does not fit: the caller then writes the report file (JSON).
bool deliver_report(std::string_view bytes);

}  // namespace bspcheck::rt
