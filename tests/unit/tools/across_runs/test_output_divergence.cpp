// tools/across_runs/output_divergence: the first line where one process's output parts between two
// runs, from output captured with the prefix "[pid] ".
#include "tools/across_runs/output_divergence.hpp"

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
