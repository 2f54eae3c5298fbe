// engine/core/output_capture.hpp on its own: while a capture is installed, what the C stdio streams and
// the C++ standard streams write reaches its sink, stream by stream; afterwards the originals are
// back.
#include <gtest/gtest.h>

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "engine/core/output_capture.hpp"

using bspcheck::rt::OutputCapture;

namespace {

std::string g_captured[2];
void sink(int stream, const char* data, std::size_t n) { g_captured[stream].append(data, n); }

}  // namespace

TEST(OutputCapture, StdioAndIostreamsReachTheSinkAndTheOriginalsComeBack) {
  g_captured[0].clear();
  g_captured[1].clear();
  std::FILE* const out = stdout;
  std::FILE* const err = stderr;
  std::streambuf* const cout_buf = std::cout.rdbuf();
  {
    OutputCapture capture(&sink);
    EXPECT_EQ(capture.original(0), out);
    EXPECT_EQ(capture.original(1), err);
    std::printf("a%d\n", 1);
    std::fputs("b", stderr);
    std::fwrite("c", 1, 1, stdout);
    std::cout << "d" << std::flush;
    std::cerr << "e";
    std::clog << "f" << std::flush;
  }
  EXPECT_EQ(g_captured[0], "a1\ncd");
  EXPECT_EQ(g_captured[1], "bef");
  EXPECT_EQ(stdout, out);
  EXPECT_EQ(stderr, err);
  EXPECT_EQ(std::cout.rdbuf(), cout_buf);
}

TEST(OutputCapture, InstallingAgainPointsTheStreamsAtTheCapture) {
  g_captured[0].clear();
  std::ostringstream elsewhere;
  {
    OutputCapture capture(&sink);
    // A process whose private copy of the stream variables still has the originals.
    std::streambuf* const captured = std::cout.rdbuf(elsewhere.rdbuf());
    std::cout << "lost";
    capture.install_in_running_process();
    EXPECT_EQ(std::cout.rdbuf(), captured);
    std::cout << "kept" << std::flush;
  }
  EXPECT_EQ(elsewhere.str(), "lost");
  EXPECT_EQ(g_captured[0], "kept");
}

TEST(OutputCapture, NothingReachesTheSinkOnceItIsGone) {
  g_captured[1].clear();
  { OutputCapture capture(&sink); }
  std::fputs("", stderr);
  EXPECT_EQ(g_captured[1], "");
}
