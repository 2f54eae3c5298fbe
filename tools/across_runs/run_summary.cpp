#include "tools/across_runs/run_summary.hpp"

#include <algorithm>
#include <cstdio>

#include "checker/finding_text.hpp"
#include "tools/reports/reports.hpp"

namespace bspcheck::cli {

std::vector<const Finding*> FindingSummary::add_run(const std::vector<Finding>& findings, int p, std::uint64_t seed,
                                                    std::uint64_t run_number, bool werror) {
  std::vector<const Finding*> fresh;
  for (const Finding& f : findings) {
    const bool is_new = seen_.insert(finding_key(f)).second;
    if (is_new) fresh.push_back(&f);
    const std::string where = checker::finding_where(f);
    auto [ri, new_row] = row_index_.try_emplace(f.rule + "\x1f" + where, rows_.size());
    if (new_row) rows_.push_back(Row{f.rule, where, p, seed, 0, 0, ~0ull, false});
    Row& row = rows_[ri->second];
    if (is_new) ++row.variants;
    if (row.last_run != run_number) ++row.runs, row.last_run = run_number;
    row.fails = row.fails || checker::finding_fails(f, werror);
  }
  return fresh;
}

void FindingSummary::print_table(std::uint64_t runs_with_findings, std::uint64_t runs) const {
  std::size_t wr = 4, ww = 8;
  for (const Row& r : rows_) {
    wr = std::max(wr, r.rule.size());
    ww = std::max(ww, r.where.size());
  }
  std::fprintf(stderr, "bsp-check: findings in %llu of %llu runs:\n",
               static_cast<unsigned long long>(runs_with_findings), static_cast<unsigned long long>(runs));
  std::fprintf(stderr, "  %-*s  %-*s  %6s  %s\n", static_cast<int>(wr), "rule", static_cast<int>(ww), "location",
               "runs", "first seen");
  for (const Row& r : rows_) {
    std::string first = "p=" + std::to_string(r.first_p) + " seed=" + std::to_string(r.first_seed);
    if (r.variants > 1) first += " (" + std::to_string(r.variants) + " variants)";
    std::fprintf(stderr, "  %-*s  %-*s  %6llu  %s\n", static_cast<int>(wr), r.rule.c_str(), static_cast<int>(ww),
                 r.where.c_str(), static_cast<unsigned long long>(r.runs), first.c_str());
  }
}

}  // namespace bspcheck::cli
