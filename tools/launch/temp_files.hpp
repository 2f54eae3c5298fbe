// temp_files.hpp: where the driver keeps its temporary files and folders: under $TMPDIR when it
// names a folder (as a user or a CI runner asked), else /tmp.
#pragma once

#include <string>

namespace bspcheck::cli {

// A mkstemp/mkdtemp template "<tmpdir>/bsp-check-<what>-XXXXXX".
std::string temp_template(const std::string& what);

}  // namespace bspcheck::cli
