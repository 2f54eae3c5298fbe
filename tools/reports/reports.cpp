// reports.cpp: what the SARIF and JUnit writers (sarif.cpp, junit.cpp) share: the key of a
// finding, and text made safe to embed.
#include "tools/reports/reports.hpp"

#include "runtime/base/utf8.hpp"

namespace bspcheck::cli {

std::string run_name(const RunRecord& r) {
  std::string name = "p=" + std::to_string(r.p);
  if (r.mpi_ranks > 0) return name + " MPI job (run report " + std::to_string(r.run_report) + ")";
  return name + " seed=" + std::to_string(r.seed);
}

std::string finding_key(const Finding& f) {
  std::string key = f.rule + "\x1f" + f.message;
  for (const Location& l : f.locations)
    key += "\x1f" + l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.process) + ":" + l.call;
  return key;
}

std::string valid_utf8(const std::string& s) { return rt::repaired_utf8(s); }

std::string xml_escape(const std::string& raw, bool attribute) {
  const std::string s = valid_utf8(raw);
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        break;  // references keep them in attribute values
      case '\r':
        out += "&#13;";
        break;
      case '\t':
        out += attribute ? "&#9;" : "\t";
        break;
      default:
        if (c < 0x20) break;  // not allowed in XML 1.0, not even as a reference
        // U+FFFE and U+FFFF are not XML characters either.
        if (c == 0xef && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xbf &&
            (static_cast<unsigned char>(s[i + 2]) == 0xbe || static_cast<unsigned char>(s[i + 2]) == 0xbf)) {
          out += "\xef\xbf\xbd";
          i += 2;
          break;
        }
        out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace bspcheck::cli
