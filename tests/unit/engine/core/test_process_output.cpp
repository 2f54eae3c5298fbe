// engine/core/process_output.hpp on its own: echoed output in whole prefixed lines, the digest of
// everything, the captured copy.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "engine/core/process_output.hpp"

using bspcheck::rt::LineContext;
using bspcheck::rt::OutputLines;
using bspcheck::rt::ProcessOutput;

namespace {

// A memory stream per std stream, read back as text.
struct Streams {
  char* buf[2] = {nullptr, nullptr};
  std::size_t len[2] = {0, 0};
  std::FILE* f[2];
  Streams() {
    for (int i = 0; i < 2; ++i) f[i] = open_memstream(&buf[i], &len[i]);
  }
  ~Streams() {
    for (int i = 0; i < 2; ++i) {
      std::fclose(f[i]);
      std::free(buf[i]);
    }
  }
  std::string text(int i) {
    std::fflush(f[i]);
    return std::string(buf[i], len[i]);
  }
};

}  // namespace

TEST(ProcessOutput, EchoesWholeLinesWithThePrefix) {
  Streams s;
  OutputLines lines("[%p] ", false, true);
  ProcessOutput a, b;
  lines.write(a, 0, {}, 0, "hel", 3, s.f);
  lines.write(b, 1, {}, 0, "other\n", 6, s.f);
  lines.write(a, 0, {}, 0, "lo\nwor", 6, s.f);
  EXPECT_EQ(s.text(0), "[1] other\n[0] hello\n") << "a line is written once it is complete";
  lines.flush(a, 0, {}, s.f);
  EXPECT_EQ(s.text(0), "[1] other\n[0] hello\n[0] wor\n") << "the unfinished last line, with a newline";
  lines.write(a, 0, {}, 1, "err\n", 4, s.f);
  EXPECT_EQ(s.text(1), "[0] err\n");
  lines.write(b, 1, {}, 0, "go", 2, s.f);
  lines.flush(b, 1, {}, s.f, false);
  EXPECT_EQ(s.text(0), "[1] other\n[0] hello\n[0] wor\n[1] go") << "unterminated: the process goes on with the line";
}

TEST(ProcessOutput, DigestCoversEverythingEchoedOrNot) {
  Streams s;
  OutputLines quiet("", false, false), loud("", true, true);
  ProcessOutput a, b;
  quiet.write(a, 0, {}, 0, "x\ny", 3, s.f);
  loud.write(b, 0, {}, 0, "x\n", 2, s.f);
  loud.write(b, 0, {}, 0, "y", 1, s.f);
  EXPECT_EQ(a.digest.value(), b.digest.value()) << "the same bytes, however they were split";
  EXPECT_EQ(s.text(0), "x\n");
  EXPECT_TRUE(a.captured.empty());
  EXPECT_EQ(b.captured, "x\ny");
  ProcessOutput c;
  quiet.write(c, 0, {}, 0, "x\nz", 3, s.f);
  EXPECT_NE(c.digest.value(), a.digest.value());
}

TEST(ProcessOutput, PrefixShowsSuperstepAndLastCall) {
  Streams s;
  OutputLines lines("[%p|%s|%c] %%", false, true);
  EXPECT_TRUE(lines.needs_context());
  EXPECT_FALSE(OutputLines("[%p] ", false, true).needs_context());
  ProcessOutput a;
  LineContext where;
  where.superstep = 3;
  where.call = "bsp_sync";
  where.file = "prog.c";
  where.line = 12;
  lines.write(a, 2, where, 0, "x\n", 2, s.f);
  LineContext unknown_site;
  unknown_site.superstep = 4;
  unknown_site.call = "bsp_move";
  lines.write(a, 2, unknown_site, 0, "y\n", 2, s.f);
  EXPECT_EQ(s.text(0), "[2|3|bsp_sync@prog.c:12] %%x\n[2|4|bsp_move] %%y\n")
      << "%s and %c expanded; other characters, a lone % among them, kept";
}
