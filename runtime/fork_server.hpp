// fork_server.hpp: many runs of one program without paying for exec and dynamic loading each
// time. When the driver sets BSPCHECK_FORKSERVER, the program's first bsp_begin does not start a
// run: it serves requests from the driver, forking one child per run; the child continues from
// bsp_begin with that run's options and output files, as if the program had just been started.
// What main did before bsp_begin happens once (its output goes to the server's own files).
#pragma once

namespace bspcheck::rt {

// Called at the start of the program's first bsp_begin. Returns at once when no fork server was
// requested, returns in each child with its run's environment set, and never returns in the
// server itself (it exits when the driver closes the request pipe).
void serve_forks_if_requested();

}  // namespace bspcheck::rt
