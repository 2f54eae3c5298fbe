#include "tools/launch/own_cgroup.hpp"

#include <fstream>

namespace bspcheck::cli {

std::string own_cgroup_dir() {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("0::", 0) == 0) return "/sys/fs/cgroup" + line.substr(3);
  return "";
}

bool cgroup_word_number(const std::string& word, std::uint64_t& value) {
  if (word.empty() || word.size() > 18 || word.find_first_not_of("0123456789") != std::string::npos) return false;
  value = std::stoull(word);
  return true;
}

bool cgroup_number(const std::string& path, std::uint64_t& value) {
  std::ifstream in(path);
  std::string word;
  return in >> word && cgroup_word_number(word, value);
}

}  // namespace bspcheck::cli
