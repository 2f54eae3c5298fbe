#include "mpi/api/command_line.hpp"

#include <fstream>
#include <iterator>

namespace bspcheck::mpi {

std::vector<std::string> command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string all{std::istreambuf_iterator<char>(in), {}};
  std::vector<std::string> words;
  // Each word ends with a NUL; the last one's may be missing if the process rewrote its argv.
  for (std::size_t at = 0; at < all.size();) {
    const std::size_t end = all.find('\0', at);
    words.push_back(all.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return words;
}

}  // namespace bspcheck::mpi
