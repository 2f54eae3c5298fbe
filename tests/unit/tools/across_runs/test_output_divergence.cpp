// tools/across_runs/output_divergence: the first line where one process's output parts between two
// runs, from output captured with the prefix "[pid] ".
#include "tools/across_runs/output_divergence.hpp"

#include "runtime/base/hash.hpp"

#include <gtest/gtest.h>

using bspcheck::cli::RunOutcome;

TEST(OutputDivergence, LinesOfOneProcess) {
  const std::string text = "[0] a\n[1] b\n[0] c\n[10] d\nno prefix\n";
  EXPECT_EQ(bspcheck::cli::lines_of(text, 0), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(bspcheck::cli::lines_of(text, 1), (std::vector<std::string>{"b"}));
  EXPECT_EQ(bspcheck::cli::lines_of(text, 10), (std::vector<std::string>{"d"}));
  EXPECT_TRUE(bspcheck::cli::lines_of(text, 2).empty());
}

TEST(OutputDivergence, NamesTheFirstDifferingLineAndStream) {
  RunOutcome a, b;
  a.out = "[0] same\n[1] x=1\n[1] tail\n";
  b.out = "[0] same\n[1] x=2\n[1] tail\n";
  const std::string d = bspcheck::cli::first_output_difference(a, b, 1, "seed 1", "seed 2");
  EXPECT_NE(d.find("on stdout"), std::string::npos) << d;
  EXPECT_NE(d.find("x=1"), std::string::npos) << d;
  EXPECT_NE(d.find("x=2"), std::string::npos) << d;
  // Process 0 printed the same: nothing tells the runs apart for it.
  EXPECT_EQ(bspcheck::cli::first_output_difference(a, b, 0, "seed 1", "seed 2"),
            "the outputs could not be told apart when run again");
  a.err = "[0] warn 1\n";
  b.err = "[0] warn 2\n";
  EXPECT_NE(bspcheck::cli::first_output_difference(a, b, 0, "seed 1", "seed 2").find("on stderr"), std::string::npos);
}

// The line a kept divergence's replay watches: the failing run's first line that differs, with
// the digest of the reference's version of it.
TEST(OutputDivergence, FirstDifferingLineToWatch) {
  RunOutcome reference, failing;
  reference.out = "[1] same\n[0] other process\n[1] x=1\n";
  failing.out = "[1] same\n[1] x=2\n";
  const std::optional<bspcheck::ExpectedLine> e = bspcheck::cli::first_differing_line(reference, failing, 1);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->process, 1);
  EXPECT_EQ(e->stream, 0);
  EXPECT_EQ(e->line, 2);
  EXPECT_TRUE(e->reference_has_it);
  EXPECT_EQ(e->digest, bspcheck::rt::fnv1a64("x=1", 3));
  // A line the reference does not have, on stderr.
  reference = failing = RunOutcome{};
  reference.out = failing.out = "[0] a\n";
  failing.err = "[0] extra\n";
  const auto extra = bspcheck::cli::first_differing_line(reference, failing, 0);
  ASSERT_TRUE(extra.has_value());
  EXPECT_EQ(extra->stream, 1);
  EXPECT_EQ(extra->line, 1);
  EXPECT_FALSE(extra->reference_has_it);
  // The failing run printing fewer lines leaves nothing to watch; equal outputs neither.
  failing.err.clear();
  failing.out.clear();
  EXPECT_FALSE(bspcheck::cli::first_differing_line(reference, failing, 0).has_value());
  EXPECT_FALSE(bspcheck::cli::first_differing_line(reference, reference, 0).has_value());
}
