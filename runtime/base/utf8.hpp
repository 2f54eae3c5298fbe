// utf8.hpp: well-formed UTF-8, as JSON, SARIF and XML need their text, for the run report's codecs
// (checker/binary_report) and the driver's reports (tools/reports/reports).
//
// Well-formed as RFC 3629 and nlohmann::json's decoder judge it: no overlong forms, no surrogates
// (U+D800..U+DFFF), nothing past U+10FFFF.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace bspcheck::rt {

// The length of the well-formed sequence at s[i] (1 to 4), or 0 when the bytes there are not one.
inline std::size_t utf8_sequence_at(std::string_view s, std::size_t i) {
  const auto* b = reinterpret_cast<const unsigned char*>(s.data());
  const unsigned char c = b[i];
  if (c < 0x80) return 1;
  std::size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // past U+10FFFF
  } else {
    return 0;
  }
  if (s.size() - i < n || b[i + 1] < lo || b[i + 1] > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (b[i + k] < 0x80 || b[i + k] > 0xBF) return 0;
  return n;
}

inline bool is_valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence_at(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

// `s` with each byte that begins no well-formed sequence replaced by U+FFFD.
inline std::string repaired_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence_at(s, i);
    if (n == 0) {
      out += "\xef\xbf\xbd";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace bspcheck::rt
