// proc_list.hpp: "-p 1-4,8" -> {1, 2, 3, 4, 8}.
#pragma once

#include <string>
#include <vector>

namespace bspcheck::cli {

// Throws std::invalid_argument with a message fit for the user on bad input (including 0).
std::vector<int> parse_proc_list(const std::string& text);

}  // namespace bspcheck::cli
