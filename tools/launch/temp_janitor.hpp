// temp_janitor.hpp: a session's temporary files do not outlive a driver that is killed. The
// driver removes its temporary traces and folders itself when it ends, but a driver killed at once
// (SIGKILL, `timeout`'s second signal, a third interrupt) runs none of its own clean-up, and
// its runs die with it (they ask the kernel for that). The session's first run records into a
// temporary trace while it runs, and its determinism check's run beside it too, so such a kill
// would leave them behind. A janitor process, forked while the driver has one thread, is told
// each temporary name as it is made; when the driver ends without saying that it ended normally
// (its end of the janitor's pipe closes, which the kernel does for a killed process too), the
// janitor removes whatever of them is left, and ends.
#pragma once

#include <string>

namespace bspcheck::cli {

// Forks the janitor, once; call while the driver has a single thread. Where it cannot be forked,
// nothing watches (a killed driver leaves its temporary files, as before the janitor).
void start_temp_janitor();

// `path` (a file or a folder, made now or later) is removed if the driver is killed.
void watch_temporary(const std::string& path);

}  // namespace bspcheck::cli
