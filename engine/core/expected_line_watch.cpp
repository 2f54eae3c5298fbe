#include "engine/core/expected_line_watch.hpp"

#include "runtime/base/hash.hpp"

namespace bspcheck::rt {

bool ExpectedLineWatch::write(const char* data, std::size_t n, std::string& line) {
  for (std::size_t i = 0; i < n && !done_; ++i) {
    const bool in_line = completed_ + 1 == expected_.line;
    if (data[i] != '\n') {
      if (in_line) current_ += data[i];
      continue;
    }
    if (!in_line) {
      ++completed_;
      continue;
    }
    done_ = true;
    diverged_ = !expected_.reference_has_it || fnv1a64(current_.data(), current_.size()) != expected_.digest;
    if (diverged_) line = current_;
  }
  return diverged_;
}

}  // namespace bspcheck::rt
