#include "mpi/report/put_collisions.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <utility>

namespace bspcheck::mpi {

namespace {

// At most this many earlier overlapping puts are compared with each put, as in the engine: keeps a
// superstep in which thousands of puts hit the same bytes linear; one pair is enough to report.
constexpr std::size_t kMaxOverlapCompares = 64;

std::string site_key(const SiteRecord& s) { return std::string(s.file) + ":" + std::to_string(s.line); }

Finding collision(const LandingPut& a, const LandingPut& b, std::uint64_t overlap, int target, int superstep) {
  std::ostringstream m;
  if (a.source == b.source) m << "process " << a.source << "'s " << a.site->call << " and " << b.site->call;
  else m << "processes " << std::min(a.source, b.source) << ", " << std::max(a.source, b.source);
  // The engine draws the winner from its seed; here the run decides (docs/mpi.md).
  m << " write different data to the same " << overlap << " bytes on process " << target
    << " in one superstep: which bsp_put's data lands last depends on the run (under MPI: the higher"
    << " source rank's, or the later call's)";
  Finding f{rule_id(Rule::put_collision),
            rule_severity(Rule::put_collision),
            m.str(),
            {a.source, b.source, target},
            superstep,
            {location_of(*a.site, a.source), location_of(*b.site, b.source)}};
  std::sort(f.processes.begin(), f.processes.end());
  f.processes.erase(std::unique(f.processes.begin(), f.processes.end()), f.processes.end());
  return f;
}

}  // namespace

std::vector<Finding> put_collisions(const std::vector<LandingPut>& puts, int target, int superstep) {
  std::vector<std::size_t> order(puts.size());
  std::iota(order.begin(), order.end(), 0);
  // By address, then length, then arrival: a total order, so the findings do not depend on the sort.
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const LandingPut &x = puts[a], &y = puts[b];
    if (x.dst != y.dst) return x.dst < y.dst;
    return x.nbytes != y.nbytes ? x.nbytes < y.nbytes : a < b;
  });
  std::vector<Finding> found;
  std::set<std::pair<std::string, std::string>> reported;
  std::vector<std::size_t> active;  // puts that may still overlap later ones
  const LandingPut* last_kept = nullptr;
  for (const std::size_t i : order) {
    const LandingPut& cur = puts[i];
    std::erase_if(active, [&](std::size_t j) { return puts[j].dst + puts[j].nbytes <= cur.dst; });
    // The same bytes with the same data as the previous put add nothing (many puts of one value).
    if (last_kept && cur.dst == last_kept->dst && cur.nbytes == last_kept->nbytes &&
        std::memcmp(cur.data, last_kept->data, cur.nbytes) == 0)
      continue;
    for (std::size_t k = 0; k < active.size() && k < kMaxOverlapCompares; ++k) {
      const LandingPut& prev = puts[active[k]];
      const std::uint64_t lo = std::max(prev.dst, cur.dst), hi = std::min(prev.dst + prev.nbytes, cur.dst + cur.nbytes);
      if (lo >= hi || std::memcmp(prev.data + (lo - prev.dst), cur.data + (lo - cur.dst), hi - lo) == 0) continue;
      std::pair<std::string, std::string> key{site_key(*prev.site), site_key(*cur.site)};
      if (key.first > key.second) std::swap(key.first, key.second);
      if (!reported.insert(key).second) continue;
      // prev arrived first unless the sort put a shorter later put ahead of it.
      const bool prev_first = active[k] < i;
      found.push_back(collision(prev_first ? prev : cur, prev_first ? cur : prev, hi - lo, target, superstep));
    }
    active.push_back(i);
    last_kept = &cur;
  }
  return found;
}

}  // namespace bspcheck::mpi
