#include "engine/process_output.hpp"

namespace bspcheck::rt {

void OutputLines::write(ProcessOutput& o, int pid, int stream, const char* data, std::size_t n,
                        std::FILE* const out[2]) const {
  o.digest.add(data, n);
  if (capture_) o.captured.append(data, n);
  if (!echo_) return;
  std::string& part = o.partial[stream];
  part.append(data, n);
  std::size_t start = 0, nl;
  while ((nl = part.find('\n', start)) != std::string::npos) {
    write_prefix(out[stream], pid);
    std::fwrite(part.data() + start, 1, nl + 1 - start, out[stream]);
    start = nl + 1;
  }
  part.erase(0, start);
}

void OutputLines::flush(ProcessOutput& o, int pid, std::FILE* const out[2]) const {
  if (!echo_) return;
  for (int stream = 0; stream < 2; ++stream) {
    if (o.partial[stream].empty()) continue;
    write_prefix(out[stream], pid);
    std::fwrite(o.partial[stream].data(), 1, o.partial[stream].size(), out[stream]);
    std::fputc('\n', out[stream]);
    o.partial[stream].clear();
  }
}

void OutputLines::write_prefix(std::FILE* out, int pid) const {
  if (prefix_.empty()) return;
  std::string prefix = prefix_;
  for (std::size_t at; (at = prefix.find("%p")) != std::string::npos;) prefix.replace(at, 2, std::to_string(pid));
  std::fwrite(prefix.data(), 1, prefix.size(), out);
}

}  // namespace bspcheck::rt
