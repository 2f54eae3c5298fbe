// The watch of one byte of a file (runtime/isolation/file_byte_watch.hpp) on its own: the kernel's
// signal arrives as the writing system call returns, so a change is charged to whoever the engine
// says runs at that moment, and what reaches the file only at the end (a FILE's buffer) to the
// finisher. The end-to-end location of a file divergence is tests/isolation/kept_files_test.sh.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime/isolation/file_byte_watch.hpp"

using namespace bspcheck::rt;

namespace {

// The engine's answer to "who runs": set by the test before each write.
FileWatchCaller g_running;
bool running(FileWatchCaller* who) {
  *who = g_running;
  return true;
}

void runs(int pid, int superstep, const char* call, int line) {
  g_running.pid = pid;
  g_running.superstep = superstep;
  g_running.call = call;
  g_running.file = "prog.c";
  g_running.line = line;
}

void write_file(const std::string& path, const char* text) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, text, std::strlen(text)), static_cast<ssize_t>(std::strlen(text)));
  close(fd);
}

struct FileByteWatch : ::testing::Test {
  std::string dir, path;
  void SetUp() override {
    char name[] = "/tmp/file_byte_watch_XXXXXX";
    ASSERT_NE(mkdtemp(name), nullptr);
    dir = name;
    path = dir + "/watched.txt";
    set_file_watch_caller(&running);
  }
  void TearDown() override { std::system(("rm -rf '" + dir + "'").c_str()); }
};

TEST_F(FileByteWatch, EachChangeIsChargedToTheProcessRunningAsItsWriteReturns) {
  start_file_watch(path.c_str(), 3);  // the file does not exist yet
  runs(2, 1, "bsp_sync", 22);
  write_file(path, "abcdef");  // byte 3 appears: 'd'
  runs(3, 1, "bsp_put", 30);
  write_file(path, "xyzdef");                 // byte 3 stays 'd': not a change
  write_file(dir + "/other.txt", "0123456");  // another file of the directory
  runs(1, 2, "bsp_move", 41);
  write_file(path, "xyz");  // byte 3 is gone
  const FileByteChange* last = nullptr;
  int state = -1;
  EXPECT_FALSE(finish_file_watch(0, 5, "bsp_end", "prog.c", 50, &last, &state));
  ASSERT_NE(last, nullptr);
  EXPECT_TRUE(last->seen);
  EXPECT_EQ(last->pid, 1);
  EXPECT_EQ(last->superstep, 2);
  EXPECT_STREQ(last->call, "bsp_move");
  EXPECT_EQ(last->line, 41);
  EXPECT_STREQ(last->file, "prog.c");
  EXPECT_EQ(state, kFileEndsBefore);
}

TEST_F(FileByteWatch, ABufferFlushedOnlyAtTheEndIsChargedToTheFinisher) {
  write_file(path, "0000");
  start_file_watch(path.c_str(), 1);
  std::FILE* f = std::fopen(path.c_str(), "r+");
  ASSERT_NE(f, nullptr);
  std::fputs("01", f);  // buffered: nothing reaches the file yet
  runs(2, 3, "bsp_sync", 12);
  const FileByteChange* last = nullptr;
  int state = -1;
  finish_file_watch(0, 4, "bsp_end", "prog.c", 60, &last, &state);  // flushes every stream
  std::fclose(f);
  ASSERT_TRUE(last->seen);
  EXPECT_EQ(last->pid, 0);
  EXPECT_STREQ(last->call, "bsp_end");
  EXPECT_EQ(state, '1');
}

// The watch's descriptor is out of the program's way: the program's next descriptor is the one it
// would get without the watch.
TEST_F(FileByteWatch, LeavesTheProgramsDescriptorNumbersAlone) {
  const int before = dup(0);
  close(before);
  start_file_watch(path.c_str(), 0);
  const int during = dup(0);
  close(during);
  EXPECT_EQ(during, before);
  runs(1, 0, "bsp_sync", 5);
  write_file(path, "x");  // and the kernel's signal still comes
  const FileByteChange* last = nullptr;
  int state = -1;
  finish_file_watch(0, 1, "bsp_end", "prog.c", 9, &last, &state);
  EXPECT_EQ(last->pid, 1);
}

TEST_F(FileByteWatch, AnUnchangedByteIsNotAChange) {
  write_file(path, "abc");
  start_file_watch(path.c_str(), 0);
  runs(1, 0, "bsp_sync", 5);
  write_file(path, "axy");  // byte 0 written again, the same
  const FileByteChange* last = nullptr;
  int state = -1;
  finish_file_watch(0, 1, "bsp_end", "prog.c", 9, &last, &state);
  EXPECT_FALSE(last->seen);
  EXPECT_EQ(state, 'a');
}

}  // namespace
