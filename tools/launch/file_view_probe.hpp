// file_view_probe.hpp: does the kernel grant the runs of a program a view of their own files
// here (runtime/isolation/file_view.hpp)? Asked once per session, before runs go side by side:
// where it refuses (some containers, kernel.unprivileged_userns_clone=0, AppArmor's restriction
// of user namespaces), runs share the real directories, and side by side they would meet in the
// same files, so the session runs them one at a time (docs/semantics.md).
#pragma once

#include <string>

namespace bspcheck::cli {

// The program's own runtime answers: started once with BSPCHECK_FILE_VIEW=probe, it makes the
// view exactly as a run's would, prints whether it could and ends before any of the program's
// code runs (a few milliseconds). Returns why the view was refused (a sentence), or an empty
// string where it was made, or where the program gave no answer in 10 seconds (its runs then
// say for themselves).
std::string file_view_refusal_of(const std::string& program);

}  // namespace bspcheck::cli
