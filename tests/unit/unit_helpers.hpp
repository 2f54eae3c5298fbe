// Shared helpers for the unit tests. Every test runs an SPMD lambda through bspcheck::run; the
// processes share one address space, so per-process results go into captured containers
// indexed by bsp_pid(), and assertions are made after the run returns.
#pragma once

#include <bsp.h>
#include <bspcheck/bspcheck.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace unit {

inline bspcheck::RunResult run(int procs, std::uint64_t seed, const std::function<void()>& spmd,
                               bool checks = true) {
  bspcheck::Options o;
  o.procs = procs;
  o.seed = seed;
  o.checks = checks;
  return bspcheck::run(o, spmd);
}

inline bspcheck::RunResult run_opts(const bspcheck::Options& o,
                                    const std::function<void()>& spmd) {
  return bspcheck::run(o, spmd);
}

// Number of error-severity findings.
inline std::size_t errors(const bspcheck::RunResult& r) {
  std::size_t n = 0;
  for (const auto& f : r.findings)
    if (f.severity == bspcheck::Severity::error) ++n;
  return n;
}

// The first finding with the given rule, or nullptr.
inline const bspcheck::Finding* find(const bspcheck::RunResult& r, const std::string& rule) {
  for (const auto& f : r.findings)
    if (f.rule == rule) return &f;
  return nullptr;
}

inline bool contains(const std::vector<int>& v, int x) {
  for (int y : v)
    if (y == x) return true;
  return false;
}

// Seeds used by the "for many seeds" tests.
inline std::vector<std::uint64_t> seeds(int n, std::uint64_t base = 1) {
  std::vector<std::uint64_t> s;
  for (int i = 0; i < n; ++i) s.push_back(base + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(i));
  return s;
}

}  // namespace unit

#define EXPECT_RUN_OK(r) EXPECT_TRUE((r).ok()) << (r).summary()
#define ASSERT_RUN_OK(r) ASSERT_TRUE((r).ok()) << (r).summary()
