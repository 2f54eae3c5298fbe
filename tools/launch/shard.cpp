#include "tools/launch/shard.hpp"

#include "tools/cli/option_checks.hpp"

namespace bspcheck::cli {

std::optional<Shard> parse_shard(const std::string& text, std::string& error) {
  const std::size_t slash = text.find('/');
  const auto count = slash == std::string::npos ? std::nullopt : parse_whole_number(text.substr(slash + 1), 1, 1000000);
  const auto index = slash == std::string::npos ? std::nullopt : parse_whole_number(text.substr(0, slash), 0, 999999);
  if (!count || !index || *index >= *count) {
    error = "expected I/N with 0 <= I < N <= 1000000 (e.g. 3/64), got '" + text + "'";
    return std::nullopt;
  }
  return Shard{*index, *count};
}

}  // namespace bspcheck::cli
