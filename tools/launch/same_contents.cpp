#include "tools/launch/same_contents.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace bspcheck::cli {

bool same_contents(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  if (stat(a.c_str(), &sa) != 0 || stat(b.c_str(), &sb) != 0 || sa.st_size != sb.st_size) return false;
  std::FILE* x = std::fopen(a.c_str(), "rb");
  std::FILE* y = x ? std::fopen(b.c_str(), "rb") : nullptr;
  bool same = y != nullptr;
  static constexpr std::size_t kBlock = 1 << 16;
  std::vector<char> bx(kBlock), by(kBlock);
  while (same) {
    const std::size_t n = std::fread(bx.data(), 1, kBlock, x), m = std::fread(by.data(), 1, kBlock, y);
    same = n == m && std::memcmp(bx.data(), by.data(), n) == 0;
    if (n < kBlock) break;
  }
  if (x) std::fclose(x);
  if (y) std::fclose(y);
  return same;
}

}  // namespace bspcheck::cli
