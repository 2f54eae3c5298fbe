// temp_files.hpp: where the driver keeps its temporary files and folders: under $TMPDIR when it
// names a folder (as a user or a CI runner asked), else /tmp.
#pragma once

#include <cstddef>
#include <string>

namespace bspcheck::cli {

// Every name below but temp_template's is told to the janitor (tools/launch/temp_janitor.hpp) as
// it is made: a driver killed at once leaves none of them behind. A driver that ends normally
// removes or keeps them itself.

// A mkstemp/mkdtemp template "<tmpdir>/bsp-check-<what>-XXXXXX", for a file the janitor need
// not know (one per run, removed by the driver as the run ends).
std::string temp_template(const std::string& what);

// An empty file "<tmpdir>/bsp-check-<what>-XXXXXX" made now. Where it cannot be made, the
// template itself: whoever writes there then says why it cannot (a recording names the path).
std::string temp_file(const std::string& what);

// A folder "<tmpdir>/bsp-check-<what>-XXXXXX" made now; empty when it cannot be made.
std::string temp_folder(const std::string& what);

// A path "<tmpdir>/bsp-check-<what>-<pid>-<random>" that nothing is at yet, for a folder that the
// runs make only when they have something to put in it (a run's kept files): a session killed
// by SIGKILL then leaves nothing behind for runs that wrote nothing.
std::string temp_name(const std::string& what);

// As temp_name, but exactly `length` characters long ("<tmpdir>/bsp-check-<what>-<random>"), for a
// run that must have the same heap as another whose option names a path of that length
// (tools/across_runs/check_run_beside.hpp); empty when no such name fits.
std::string temp_name_of_length(const std::string& what, std::size_t length);

}  // namespace bspcheck::cli
