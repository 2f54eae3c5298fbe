// text_file.hpp: reading a small text input a user names (a suppressions file, a choice script)
// with bounded memory, failing fast on what is not one: a directory, a device or pipe that never
// ends (/dev/zero), binary data, a line or a file longer than any such file. Header-only: the
// driver, the checker and the runtime all read these files.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "runtime/base/outside_files.hpp"

namespace bspcheck::rt {

// A byte count as the messages say it: "16 MiB", "4096 bytes".
inline std::string byte_count_text(std::size_t n) {
  if (n >= (std::size_t{1} << 20) && n % (std::size_t{1} << 20) == 0) return std::to_string(n >> 20) + " MiB";
  if (n >= (std::size_t{1} << 10) && n % (std::size_t{1} << 10) == 0) return std::to_string(n >> 10) + " KiB";
  return std::to_string(n) + " bytes";
}

// The whole of the text file `path`, `what` naming it in messages ("suppressions file"). Throws
// std::runtime_error, one line starting with the path, for a file that cannot be read, a
// directory, more than max_bytes, a line longer than max_line bytes, or a control byte other than
// tab, CR, LF, VT and FF (binary data: the message gives its value, never the raw bytes). Reads
// in blocks and checks each as it comes: /dev/zero fails in the first block.
inline std::string read_text_file(const std::string& path, const std::string& what, std::size_t max_bytes,
                                  std::size_t max_line) {
  const int fd = open_outside(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(path + ": cannot read the " + what + ": " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) throw std::runtime_error(path + ": is a directory, not a " + what);
  std::string text;
  std::size_t line = 1, line_length = 0;
  char block[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, block, sizeof block);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw std::runtime_error(path + ": cannot read the " + what + ": " + std::strerror(errno));
    if (got == 0) break;
    for (ssize_t i = 0; i < got; ++i) {
      const unsigned char c = static_cast<unsigned char>(block[i]);
      if (c == '\n') {
        ++line, line_length = 0;
        continue;
      }
      if ((c < 0x20 && c != '\t' && c != '\r' && c != '\v' && c != '\f') || c == 0x7f) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", c);
        throw std::runtime_error(path + ":" + std::to_string(line) + ": binary data (byte " + hex + "), not a " + what);
      }
      if (++line_length > max_line)
        throw std::runtime_error(path + ":" + std::to_string(line) + ": a line longer than " +
                                 byte_count_text(max_line) + ", not a " + what);
    }
    if (text.size() + static_cast<std::size_t>(got) > max_bytes)
      throw std::runtime_error(path + ": more than " + byte_count_text(max_bytes) + ", not a " + what);
    text.append(block, static_cast<std::size_t>(got));
  }
  return text;
}

}  // namespace bspcheck::rt
