// Scaffolding: replaced by the implementation of `bsp-check show` (in progress).
#include "tools/show_command.hpp"

#include <iostream>

namespace bspcheck::cli {

int show_command(const std::vector<std::string>&) {
  std::cerr << "bsp-check: error: show is not available in this build yet\n";
  return 2;
}

}  // namespace bspcheck::cli
