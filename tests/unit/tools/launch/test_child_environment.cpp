// tools/launch/child_environment: the environment a run is given, built as a value.
#include "tools/launch/child_environment.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using bspcheck::cli::ChildEnvironment;

namespace {

// The entries of NAME in the array execve would get.
std::vector<std::string> values(ChildEnvironment& env, const std::string& name) {
  std::vector<std::string> out;
  for (char* const* e = env.envp(); *e; ++e)
    if (std::string(*e).rfind(name + "=", 0) == 0) out.push_back(std::string(*e).substr(name.size() + 1));
  return out;
}

}  // namespace

// The driver's options come first, so that a sanitizer, which reads them left to right, lets the
// user's own value of the same option win.
TEST(ChildEnvironment, PrependedOptionsComeBeforeTheUsersOwn) {
  ChildEnvironment env;
  env.unset("BSPCHECK_TEST_OPTIONS");
  env.prepend_options("BSPCHECK_TEST_OPTIONS", "halt_on_error=0");
  EXPECT_EQ(values(env, "BSPCHECK_TEST_OPTIONS"), std::vector<std::string>{"halt_on_error=0"});
  env.set("BSPCHECK_TEST_OPTIONS", "detect_leaks=1:halt_on_error=1");
  env.prepend_options("BSPCHECK_TEST_OPTIONS", "halt_on_error=0:suppress_equal_pcs=0");
  EXPECT_EQ(values(env, "BSPCHECK_TEST_OPTIONS"),
            std::vector<std::string>{"halt_on_error=0:suppress_equal_pcs=0:detect_leaks=1:halt_on_error=1"});
  env.set("BSPCHECK_TEST_OPTIONS", "");
  env.prepend_options("BSPCHECK_TEST_OPTIONS", "a=1");
  EXPECT_EQ(values(env, "BSPCHECK_TEST_OPTIONS"), std::vector<std::string>{"a=1"}) << "no empty option after it";
}
