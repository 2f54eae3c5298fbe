#include "tools/launch/proc_list.hpp"

#include <stdexcept>
#include <string>

namespace bspcheck::cli {

namespace {

constexpr long kMaxRange = 10000;      // process counts in one range of -p
constexpr long kMaxCount = 100000000;  // processes in one run: far above what memory holds

long parse_count(const std::string& s, const std::string& whole) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument("-p " + whole + ": expected a number, a range like 1-4, or a list like 1-4,8");
  const auto too_many = [&] {
    return std::invalid_argument("-p " + whole + ": " + s + " processes is too many (at most " +
                                 std::to_string(kMaxCount) + ")");
  };
  if (s.size() > 9) throw too_many();  // more digits than kMaxCount has
  long v = std::stol(s);               // at most 9 digits: cannot overflow
  if (v < 1) throw std::invalid_argument("-p " + whole + ": " + s + " processes: p must be at least 1");
  if (v > kMaxCount) throw too_many();
  return v;
}

}  // namespace

std::vector<int> parse_proc_list(const std::string& text) {
  std::vector<int> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(start, end - start);
    std::size_t dash = item.find('-');
    if (dash == std::string::npos) {
      out.push_back(static_cast<int>(parse_count(item, text)));
    } else {
      long lo = parse_count(item.substr(0, dash), text), hi = parse_count(item.substr(dash + 1), text);
      if (hi < lo)
        throw std::invalid_argument("-p " + text + ": empty range " + item + " (write the smaller count first)");
      if (hi - lo >= kMaxRange)
        throw std::invalid_argument("-p " + text + ": range " + item + " has " + std::to_string(hi - lo + 1) +
                                    " process counts, more than " + std::to_string(kMaxRange) +
                                    " (a list picks some, e.g. 1-4,8,16)");
      for (long v = lo; v <= hi; ++v) out.push_back(static_cast<int>(v));
    }
    start = end + 1;
  }
  return out;
}

}  // namespace bspcheck::cli
