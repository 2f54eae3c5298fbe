// own_cgroup.hpp: the driver's own cgroup (v2), where a container or a batch job puts its limits
// on memory and processors (memory_available.hpp, cores_available.hpp read them).
#pragma once

#include <cstdint>
#include <string>

namespace bspcheck::cli {

// The cgroup v2 folder of this process ("0::/PATH" in /proc/self/cgroup, under /sys/fs/cgroup),
// or "" where there is none.
std::string own_cgroup_dir();

// A word of a cgroup file as a number; false for "max" and anything else that is not a number
// of at most 18 digits.
bool cgroup_word_number(const std::string& word, std::uint64_t& value);

// The first word of a cgroup file as a number (cgroup_word_number); false where it is not one or
// the file cannot be read.
bool cgroup_number(const std::string& path, std::uint64_t& value);

}  // namespace bspcheck::cli
