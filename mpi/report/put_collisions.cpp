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

// At most this many earlier overlapping writes are compared with each write, as in the engine:
// keeps a superstep in which thousands of puts hit the same bytes linear; one pair is enough.
constexpr std::size_t kMaxOverlapCompares = 64;

std::string site_key(const SiteRecord& s) { return std::string(s.file) + ":" + std::to_string(s.line); }

bool is_get(const LandingWrite& w) { return std::strcmp(w.site->call, "bsp_get") == 0; }

// Who lands last where two buffered writes overlap. A get's data before a put's is BSPlib's rule
// (the engine's text); between two of a kind the engine draws the order from its seed, and here
// the run decides it (docs/mpi.md): the data from the higher rank, then the later call.
std::string outcome(const LandingWrite& a, const LandingWrite& b) {
  if (is_get(a) != is_get(b))
    return "the bsp_get's data is written first and the bsp_put's data lands last, as BSPlib specifies";
  if (is_get(a))
    return "which bsp_get's data lands last depends on the run (under MPI: the data read from the higher rank, or "
           "the later call's)";
  return "which bsp_put's data lands last depends on the run (under MPI: the higher source rank's, or the later "
         "call's)";
}

Finding collision(const LandingWrite& a, const LandingWrite& b, std::uint64_t overlap, int target, int superstep) {
  std::ostringstream m;
  if (a.writer == b.writer) m << "process " << a.writer << "'s " << a.site->call << " and " << b.site->call;
  else m << "processes " << std::min(a.writer, b.writer) << ", " << std::max(a.writer, b.writer);
  m << " write different data to the same " << overlap << " bytes on process " << target
    << " in one superstep: " << outcome(a, b);
  Finding f{rule_id(Rule::put_collision),
            rule_severity(Rule::put_collision),
            m.str(),
            {a.writer, b.writer, target},
            superstep,
            {location_of(*a.site, a.writer), location_of(*b.site, b.writer)}};
  std::sort(f.processes.begin(), f.processes.end());
  f.processes.erase(std::unique(f.processes.begin(), f.processes.end()), f.processes.end());
  return f;
}

}  // namespace

std::vector<Finding> put_collisions(const std::vector<LandingWrite>& writes, int target, int superstep) {
  std::vector<std::size_t> order(writes.size());
  std::iota(order.begin(), order.end(), 0);
  // By address, then length, then arrival: a total order, so the findings do not depend on the sort.
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const LandingWrite &x = writes[a], &y = writes[b];
    if (x.dst != y.dst) return x.dst < y.dst;
    return x.nbytes != y.nbytes ? x.nbytes < y.nbytes : a < b;
  });
  std::vector<Finding> found;
  std::set<std::pair<std::string, std::string>> reported;
  std::vector<std::size_t> active;  // writes that may still overlap later ones
  const LandingWrite* last_kept = nullptr;
  for (const std::size_t i : order) {
    const LandingWrite& cur = writes[i];
    std::erase_if(active, [&](std::size_t j) { return writes[j].dst + writes[j].nbytes <= cur.dst; });
    // The same bytes with the same data as the previous write add nothing (many puts of one value).
    if (last_kept && cur.dst == last_kept->dst && cur.nbytes == last_kept->nbytes &&
        std::memcmp(cur.data, last_kept->data, cur.nbytes) == 0)
      continue;
    for (std::size_t k = 0; k < active.size() && k < kMaxOverlapCompares; ++k) {
      const LandingWrite& prev = writes[active[k]];
      const std::uint64_t lo = std::max(prev.dst, cur.dst), hi = std::min(prev.dst + prev.nbytes, cur.dst + cur.nbytes);
      if (lo >= hi || std::memcmp(prev.data + (lo - prev.dst), cur.data + (lo - cur.dst), hi - lo) == 0) continue;
      std::pair<std::string, std::string> key{site_key(*prev.site), site_key(*cur.site)};
      if (key.first > key.second) std::swap(key.first, key.second);
      if (!reported.insert(key).second) continue;
      // prev landed first unless the sort put a shorter later write ahead of it.
      const bool prev_first = active[k] < i;
      found.push_back(collision(prev_first ? prev : cur, prev_first ? cur : prev, hi - lo, target, superstep));
    }
    active.push_back(i);
    last_kept = &cur;
  }
  return found;
}

}  // namespace bspcheck::mpi
