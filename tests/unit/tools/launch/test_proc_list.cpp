// tools/launch/proc_list: `-p LIST` as the user writes it.
#include "tools/launch/proc_list.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

using bspcheck::cli::parse_proc_list;

TEST(ProcList, CountsRangesAndListsInTheirOrder) {
  EXPECT_EQ(parse_proc_list("4"), (std::vector<int>{4}));
  EXPECT_EQ(parse_proc_list("1-4"), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(parse_proc_list("1-4,8"), (std::vector<int>{1, 2, 3, 4, 8}));
  EXPECT_EQ(parse_proc_list("8,2,2-3"), (std::vector<int>{8, 2, 2, 3}));
}

// What the user is told names the whole list and what is wrong with it.
std::string error_of(const std::string& text) {
  try {
    parse_proc_list(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(ProcList, RejectsWhatIsNoProcessCountWithAReason) {
  EXPECT_NE(error_of("0").find("at least 1"), std::string::npos);
  EXPECT_NE(error_of("4-2").find("empty range 4-2"), std::string::npos);
  EXPECT_NE(error_of("1-,8").find("-p 1-,8: expected a number"), std::string::npos);
  EXPECT_NE(error_of("").find("expected a number"), std::string::npos);
  EXPECT_NE(error_of("four").find("expected a number"), std::string::npos);
  EXPECT_NE(error_of("1,,2").find("expected a number"), std::string::npos);
  EXPECT_NE(error_of("1-20000").find("more than 10000"), std::string::npos);
  EXPECT_NE(error_of("1000000000").find("too many"), std::string::npos);
  EXPECT_NE(error_of("99999999999999999999").find("too many"), std::string::npos);
}
