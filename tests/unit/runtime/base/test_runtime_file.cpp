// runtime/base/runtime_file.hpp: a file the runtime opens to write starts empty, whatever was
// there, and a file that was empty already is not truncated again (no new modification time: the
// truncation that makes ext4 write the file out at its close, and its removal slow, is not made).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "runtime/base/runtime_file.hpp"

namespace {

class RuntimeFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/bspcheck-runtime-file-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    path_ = dir_ + "/f";
  }
  void TearDown() override {
    std::remove(path_.c_str());
    rmdir(dir_.c_str());
  }
  void write_through_runtime(const std::string& text) {
    std::FILE* f = bspcheck::rt::open_runtime_file(path_.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    EXPECT_GE(fileno(f), bspcheck::rt::kRuntimeFdFloor);
    std::fwrite(text.data(), 1, text.size(), f);
    EXPECT_EQ(bspcheck::rt::close_runtime_file(f), 0);
  }
  std::string contents() const {
    std::ifstream in(path_, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  std::string dir_, path_;
};

TEST_F(RuntimeFileTest, ANewFileHoldsWhatWasWritten) {
  write_through_runtime("trace");
  EXPECT_EQ(contents(), "trace");
}

TEST_F(RuntimeFileTest, ALongerFileIsReplacedWhole) {
  write_through_runtime(std::string(100'000, 'x'));
  write_through_runtime("short");
  EXPECT_EQ(contents(), "short");  // nothing of the longer file's tail is left
}

TEST_F(RuntimeFileTest, AnEmptyFileIsWrittenWithoutBeingTruncated) {
  std::fclose(std::fopen(path_.c_str(), "w"));  // as the driver reserves a temporary trace's name
  struct timespec old_time[2] = {{1'000'000, 0}, {1'000'000, 0}};
  ASSERT_EQ(utimensat(AT_FDCWD, path_.c_str(), old_time, 0), 0);
  std::FILE* f = bspcheck::rt::open_runtime_file(path_.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  struct stat st {};
  ASSERT_EQ(fstat(fileno(f), &st), 0);
  EXPECT_EQ(st.st_mtim.tv_sec, 1'000'000) << "opening an empty file truncated it (O_TRUNC marks it modified)";
  EXPECT_EQ(bspcheck::rt::close_runtime_file(f), 0);
  write_through_runtime("after");
  EXPECT_EQ(contents(), "after");
}

TEST_F(RuntimeFileTest, AFileWithContentsIsTruncatedAtOnce) {
  write_through_runtime("old contents");
  std::FILE* f = bspcheck::rt::open_runtime_file(path_.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  struct stat st {};
  ASSERT_EQ(fstat(fileno(f), &st), 0);
  EXPECT_EQ(st.st_size, 0);  // at the open, as O_TRUNC would: a run cut short leaves no old tail
  EXPECT_EQ(bspcheck::rt::close_runtime_file(f), 0);
}

TEST_F(RuntimeFileTest, AFileThatCannotBeOpenedGivesTheErrnoOfOpen) {
  EXPECT_EQ(bspcheck::rt::open_runtime_file((dir_ + "/missing/f").c_str(), "wb"), nullptr);
  EXPECT_EQ(errno, ENOENT);
}

}  // namespace
