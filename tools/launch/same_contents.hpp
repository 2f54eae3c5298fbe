// same_contents.hpp: whether two files hold the same bytes, for the driver's comparisons of what
// two runs left: their traces (the determinism check) and their files (copy_back, which copies
// back only what a run changed).
#pragma once

#include <string>

namespace bspcheck::cli {

// Sizes first, then blocks compared with memcmp: two recordings of a million calls each in a
// millisecond or two. False when either cannot be read.
bool same_contents(const std::string& a, const std::string& b);

}  // namespace bspcheck::cli
