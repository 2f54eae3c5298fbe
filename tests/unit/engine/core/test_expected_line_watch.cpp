// engine/core/expected_line_watch: a kept divergence's replay watches one line of one process, and
// says whether it differs from the reference's when it is complete (whatever the write sizes).
#include "engine/core/expected_line_watch.hpp"

#include <gtest/gtest.h>

#include "runtime/base/hash.hpp"
#include "runtime/options/option_values.hpp"

using bspcheck::ExpectedLine;
using bspcheck::rt::ExpectedLineWatch;

namespace {
ExpectedLine watch_line(long line, const std::string& reference) {
  ExpectedLine e;
  e.process = 2;
  e.stream = 0;
  e.line = line;
  e.digest = bspcheck::rt::fnv1a64(reference.data(), reference.size());
  return e;
}
}  // namespace

TEST(ExpectedLineWatch, ReportsTheWatchedLineWhenItDiffersAcrossWrites) {
  ExpectedLineWatch w(watch_line(2, "value 100"));
  EXPECT_TRUE(w.watching(2, 0));
  EXPECT_FALSE(w.watching(2, 1));
  EXPECT_FALSE(w.watching(1, 0));
  std::string line;
  EXPECT_FALSE(w.write("first\nval", 9, line));  // line 1 done, line 2 begun
  EXPECT_FALSE(w.write("ue 10", 5, line));
  EXPECT_TRUE(w.write("2\nmore\n", 7, line));
  EXPECT_EQ(line, "value 102");
  EXPECT_TRUE(w.diverged());
  EXPECT_FALSE(w.watching(2, 0));  // once decided, no more watching
}

TEST(ExpectedLineWatch, TheSameLineIsNoDivergence) {
  ExpectedLineWatch w(watch_line(1, "value 100"));
  std::string line;
  EXPECT_FALSE(w.write("value 100\n", 10, line));
  EXPECT_FALSE(w.diverged());
  EXPECT_FALSE(w.watching(2, 0));
}

TEST(ExpectedLineWatch, ALineTheReferenceNeverPrintedDiffers) {
  ExpectedLine e = watch_line(1, "");
  e.reference_has_it = false;
  ExpectedLineWatch w(e);
  std::string line;
  EXPECT_TRUE(w.write("\n", 1, line));  // even an empty line
  EXPECT_TRUE(w.diverged());
}

// The option that carries it in a kept trace's header (runtime/options/option_values.hpp).
TEST(ExpectedLineWatch, OptionTextRoundTrips) {
  using bspcheck::rt::ExpectedLineValue;
  const ExpectedLine e = ExpectedLineValue::parse("expect_line", "3/1/17/00000000deadbeef");
  EXPECT_EQ(e.process, 3);
  EXPECT_EQ(e.stream, 1);
  EXPECT_EQ(e.line, 17);
  EXPECT_TRUE(e.reference_has_it);
  EXPECT_EQ(e.digest, 0xdeadbeefu);
  EXPECT_EQ(ExpectedLineValue::format(e), "3/1/17/00000000deadbeef");
  EXPECT_FALSE(ExpectedLineValue::parse("expect_line", "0/0/1/none").reference_has_it);
  EXPECT_EQ(ExpectedLineValue::format(ExpectedLine{}), "");
  for (const char* bad : {"1/2/1/00", "1/0/0/00", "x/0/1/00", "1/0/1", "1/0/1/zz"})
    EXPECT_ANY_THROW(ExpectedLineValue::parse("expect_line", bad)) << bad;
}
