#include "engine/core/process_output.hpp"

namespace bspcheck::rt {

void OutputLines::write(ProcessOutput& o, int pid, const LineContext& where, int stream, const char* data,
                        std::size_t n, std::FILE* const out[2]) const {
  o.digest.add(data, n);
  if (capture_) o.captured.append(data, n);
  if (!echo_) return;
  std::string& part = o.partial[stream];
  part.append(data, n);
  std::size_t start = 0, nl;
  while ((nl = part.find('\n', start)) != std::string::npos) {
    write_prefix(out[stream], pid, where);
    std::fwrite(part.data() + start, 1, nl + 1 - start, out[stream]);
    start = nl + 1;
  }
  part.erase(0, start);
}

void OutputLines::flush(ProcessOutput& o, int pid, const LineContext& where, std::FILE* const out[2],
                        bool terminate) const {
  if (!echo_) return;
  for (int stream = 0; stream < 2; ++stream) {
    if (o.partial[stream].empty()) continue;
    write_prefix(out[stream], pid, where);
    std::fwrite(o.partial[stream].data(), 1, o.partial[stream].size(), out[stream]);
    if (terminate) std::fputc('\n', out[stream]);
    o.partial[stream].clear();
  }
}

void OutputLines::write_prefix(std::FILE* out, int pid, const LineContext& where) const {
  if (prefix_.empty()) return;
  std::string prefix;
  for (std::size_t i = 0; i < prefix_.size(); ++i) {
    const char key = prefix_[i] == '%' && i + 1 < prefix_.size() ? prefix_[i + 1] : '\0';
    if (key == 'p') {
      prefix += std::to_string(pid);
    } else if (key == 's') {
      prefix += std::to_string(where.superstep);
    } else if (key == 'c') {
      prefix += where.call ? where.call : "bsp_begin";
      if (where.file) prefix += "@" + std::string(where.file) + ":" + std::to_string(where.line);
    } else {
      prefix += prefix_[i];
      continue;
    }
    ++i;
  }
  std::fwrite(prefix.data(), 1, prefix.size(), out);
}

}  // namespace bspcheck::rt
