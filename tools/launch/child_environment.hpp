// child_environment.hpp: the environment a program the driver starts is given: the driver's own,
// with a run's variables set, built before fork and passed to execve.
//
// The driver never changes its own environment. With -j, threads start runs while others read
// the environment (getenv in the driver's code and in the C and C++ libraries: TMPDIR, TZ,
// locales); a setenv that grows the environment frees the array a concurrent getenv walks, and
// the driver once died of that (a SEGV in getenv). A child's environment is a value instead.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace bspcheck::cli {

class ChildEnvironment {
 public:
  // The driver's environment of the moment (environ, which nothing in the driver writes).
  ChildEnvironment();

  void set(std::string_view name, std::string_view value);
  // Sets name only when the driver's environment does not have it.
  void set_default(std::string_view name, std::string_view value);
  // Puts options (a sanitizer's NAME=VALUE:... list) before name's value, if any: sanitizers read
  // such a list left to right, so that the driver's value rules where the driver's own
  // environment names none, and its own otherwise.
  void prepend_options(std::string_view name, std::string_view options);
  void unset(std::string_view name);
  bool has(std::string_view name) const;

  // The NAME=VALUE array for execve, ending in a null pointer. Built here, before fork: the
  // child allocates nothing between fork and exec. Valid until the next change or destruction.
  char* const* envp();

 private:
  std::vector<std::string>::iterator find(std::string_view name);
  std::vector<std::string>::const_iterator find(std::string_view name) const;
  std::vector<std::string> entries_;  // NAME=VALUE, in the driver's order, new names at the end
  std::vector<char*> pointers_;
};

}  // namespace bspcheck::cli
