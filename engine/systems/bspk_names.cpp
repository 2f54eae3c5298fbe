// bspk_names.cpp: see bspk_names.hpp.
#include "engine/systems/bspk_names.hpp"

#include <algorithm>

namespace bspcheck::rt {

ComemNames::ComemNames(int nprocs, std::function<bool(int, long)> passed)
    : p_(nprocs), passed_(std::move(passed)), recent_(static_cast<std::size_t>(nprocs)) {}

bool ComemNames::everyone_passed(long s) const {
  for (int q = 0; q < p_; ++q)
    if (!passed_(q, s)) return false;
  return true;
}

int ComemNames::allocate(const std::string& name, int idx, int owner, int region, long superstep, const Site& site) {
  const int a = static_cast<int>(allocs_.size());
  allocs_.push_back(Allocation{name, idx, owner, region, superstep, site, kLive, Site{}, false});
  by_region_[{owner, region}] = a;
  auto& same = by_name_[{name, idx}];
  bool own_conflict = false;
  for (int b : same) {
    const Allocation& other = allocs_[static_cast<std::size_t>(b)];
    if (other.owner == owner) {
      // One process's own allocations follow its program order: the earlier one either was
      // freed before this bspk_malloc or is still there.
      if (other.freed_in == kLive && !own_conflict) {
        conflicts_.push_back({a, b});
        own_conflict = true;
      }
    } else {
      pending_pairs_.push_back({b, a});
    }
  }
  same.push_back(a);
  if (own_conflict) allocs_[static_cast<std::size_t>(a)].reported = true;
  return a;
}

int ComemNames::allocation_of(int owner, int region) const {
  auto it = by_region_.find({owner, region});
  return it == by_region_.end() ? -1 : it->second;
}

void ComemNames::release(int a, long superstep, const Site& site) {
  Allocation& r = allocs_[static_cast<std::size_t>(a)];
  r.freed_in = superstep;
  r.free_site = site;
}

ComemNames::Found ComemNames::find(const std::string& name, int idx, int looker, long s) const {
  int best = -1;
  auto it = by_name_.find({name, idx});
  if (it != by_name_.end())
    for (int a : it->second) {
      const Allocation& r = allocs_[static_cast<std::size_t>(a)];
      if (r.superstep > s || (r.freed_in != kLive && r.freed_in <= s)) continue;
      // Two candidates are a double allocation (reported as such); take the latest, then the
      // lowest owner, so that the choice does not depend on which was made first.
      const Allocation* b = best < 0 ? nullptr : &allocs_[static_cast<std::size_t>(best)];
      if (!b || r.superstep > b->superstep || (r.superstep == b->superstep && r.owner < b->owner)) best = a;
    }
  if (best < 0) return {-1, everyone_passed(s)};
  const Allocation& r = allocs_[static_cast<std::size_t>(best)];
  return {best, r.owner == looker || r.freed_in != kLive || passed_(r.owner, s)};
}

ComemNames::Looked ComemNames::lookup(const std::string& name, int idx, int looker, long s, const Site& site) {
  const Found f = find(name, idx, looker, s);
  if (f.final && f.allocation >= 0) return {f.allocation, -1};
  // The same name looked up again in the same superstep (a loop) is the same lookup; only the
  // looker's current superstep can see such repeats, so older ones are forgotten.
  Recent& recent = recent_[static_cast<std::size_t>(looker)];
  if (recent.superstep != s) {
    recent.superstep = s;
    recent.lookups.clear();
  }
  auto [it, fresh] = recent.lookups.try_emplace({name, idx}, static_cast<int>(lookups_.size()));
  if (fresh) {
    lookups_.push_back(Lookup{name, idx, looker, s, site, Lookup::State::pending, -1});
    pending_lookups_.push_back(it->second);
  }
  return {-1, it->second};
}

ComemNames::Lookup::State ComemNames::decide(int l) {
  Lookup& k = lookups_[static_cast<std::size_t>(l)];
  if (k.state != Lookup::State::pending) return k.state;
  const Found f = find(k.name, k.idx, k.looker, k.superstep);
  if (!f.final) return k.state;
  if (f.allocation >= 0) {
    k.state = Lookup::State::bound;
    k.allocation = f.allocation;
  } else {
    k.state = Lookup::State::unknown;
    unknown_.push_back(l);
  }
  return k.state;
}

std::vector<int> ComemNames::take_unknown() {
  std::vector<int> still;
  for (int l : pending_lookups_)
    if (decide(l) == Lookup::State::pending) still.push_back(l);
  pending_lookups_ = std::move(still);
  std::vector<int> out = std::move(unknown_);
  unknown_.clear();
  std::sort(out.begin(), out.end());  // the order they were looked up in
  return out;
}

std::vector<ComemNames::Conflict> ComemNames::take_conflicts() {
  // Two allocations are both found by lookups of superstep m = the later one's superstep iff
  // neither is freed in a superstep <= m. A region not freed yet may still be, until its owner
  // has passed m.
  std::vector<std::pair<int, int>> still;
  for (auto [x, y] : pending_pairs_) {
    const Allocation& a = allocs_[static_cast<std::size_t>(x)];
    const Allocation& b = allocs_[static_cast<std::size_t>(y)];
    const long m = std::max(a.superstep, b.superstep);
    auto visible_in_m = [&](const Allocation& r) {  // 1 yes, 0 no, -1 not known yet
      if (r.freed_in != kLive) return r.freed_in > m ? 1 : 0;
      return passed_(r.owner, m) ? 1 : -1;
    };
    const int va = visible_in_m(a), vb = visible_in_m(b);
    if (va == 0 || vb == 0) continue;
    if (va < 0 || vb < 0) {
      still.push_back({x, y});
      continue;
    }
    const bool a_later = a.superstep > b.superstep || (a.superstep == b.superstep && a.owner > b.owner);
    const int later = a_later ? x : y, earlier = a_later ? y : x;
    Allocation& l = allocs_[static_cast<std::size_t>(later)];
    if (l.reported) continue;  // one finding per allocation
    l.reported = true;
    conflicts_.push_back({later, earlier});
  }
  pending_pairs_ = std::move(still);
  std::vector<Conflict> out = std::move(conflicts_);
  conflicts_.clear();
  return out;
}

std::vector<int> ComemNames::freed_by(const std::string& name, int idx, long s) const {
  std::vector<int> out;
  auto it = by_name_.find({name, idx});
  if (it == by_name_.end()) return out;
  for (int a : it->second) {
    const Allocation& r = allocs_[static_cast<std::size_t>(a)];
    if (r.superstep <= s && r.freed_in != kLive && r.freed_in <= s) out.push_back(a);
  }
  return out;
}

}  // namespace bspcheck::rt
