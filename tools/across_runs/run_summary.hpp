// run_summary.hpp: what a session of many runs says at its end about their findings. Identical
// findings of many runs are shown in full once; the table at the end counts them instead of a
// thousand repeats: one row per rule and source locations, whatever the processes and message.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::cli {

class FindingSummary {
 public:
  // Counts one run's findings (run_number: 1, 2, ... in the session); returns those not seen in
  // an earlier run, to be shown in full.
  std::vector<const Finding*> add_run(const std::vector<Finding>& findings, int p, std::uint64_t seed,
                                      std::uint64_t run_number, bool werror);
  bool empty() const { return rows_.empty(); }
  // The table, on stderr: "findings in N of M runs:" and one line per row.
  void print_table(std::uint64_t runs_with_findings, std::uint64_t runs) const;

 private:
  struct Row {
    std::string rule, where;
    int first_p = 0;
    std::uint64_t first_seed = 0;
    std::size_t runs = 0;
    std::size_t variants = 0;  // distinct findings (messages, processes) in this row
    std::uint64_t last_run = ~0ull;
    bool fails = false;
  };
  std::set<std::string> seen_;                    // finding_key of every finding shown
  std::map<std::string, std::size_t> row_index_;  // rule + where -> rows_[]
  std::vector<Row> rows_;
};

}  // namespace bspcheck::cli
