// run_session.hpp: one `bsp-check run` session: the program under many seeds and process counts,
// one run after another or ahead on worker threads, each run checked across seeds, counted and
// shown, then the reports and the closing lines (tools/commands/run_session.cpp).
#pragma once

#include <string>

#include "tools/cli/run_config.hpp"

namespace bspcheck::cli {

// run_command's exit status (tools/commands/run_command.hpp). files_temporary: c's keep_files folder
// is the session's own, made to compare the runs' files across seeds (its failing run's files
// are copied out of it before it goes).
int run_session(const RunConfig& c, std::string* kept_trace, bool files_temporary);

}  // namespace bspcheck::cli
