// bspk_names.hpp: the names of BSPk's comem regions (the name and index of bspk_malloc, found by
// bspk_lookup, given up by bspk_free) over the processes' own supersteps.
//
// Under lazy barriers processes are in different supersteps at once, so "what is registered when
// the lookup runs" depends on how far the others have run: on the schedule. Every answer here is
// a function of superstep numbers instead. A lookup made in superstep s finds the region of that
// name allocated in a superstep <= s and not freed in one <= s (the paper, on its Figure 6: "the
// allocation of memory may not have happened before bspk_lookup is called but is guaranteed to
// have been completed at the end of the superstep"). The answer is final once nothing can change
// it: when the region's owner has passed s (it can no longer free it in s; a process's own
// regions are final at once), or, with no such region, when every process has passed s: then
// the lookup is unknown (bspk-lookup-unknown). Two allocations of one name and index conflict
// (bspk-double-alloc) when the supersteps in which a lookup finds them overlap, decided the same
// way. docs/bspk.md.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "runtime/base/site.hpp"

namespace bspcheck::rt {

class ComemNames {
 public:
  static constexpr long kLive = -1;  // Allocation::freed_in of a region not freed

  struct Allocation {
    std::string name;
    int idx;
    int owner, region;  // the region: procs' regions[region] of owner
    long superstep;     // the owner's, at bspk_malloc
    Site site;
    long freed_in = kLive;  // the owner's superstep at bspk_free
    Site free_site;
    bool reported = false;  // a double-alloc finding names it as the later allocation
  };
  struct Lookup {
    std::string name;
    int idx;
    int looker;
    long superstep;  // the looker's, at bspk_lookup
    Site site;
    enum class State { pending, bound, unknown } state = State::pending;
    int allocation = -1;  // bound: what it found
  };
  struct Found {
    int allocation;  // -1: none (yet)
    bool final;      // nothing can change it any more
  };
  struct Conflict {
    int later, earlier;  // allocations: `later` has the greater (superstep, owner)
  };

  // passed(pid, s): process pid can no longer allocate or free in superstep s (it has entered
  // its sync of s or gone beyond, or reached bsp_end).
  ComemNames(int nprocs, std::function<bool(int, long)> passed);

  int allocate(const std::string& name, int idx, int owner, int region, long superstep, const Site& site);
  int allocation_of(int owner, int region) const;  // -1: an unnamed region
  void release(int allocation, long superstep, const Site& site);

  // A lookup by `looker` in superstep s: the allocation when final at once, else the index of a
  // Lookup to decide later (one per name, index, looker and superstep).
  struct Looked {
    int allocation = -1;  // final at once
    int lookup = -1;      // otherwise
  };
  Looked lookup(const std::string& name, int idx, int looker, long superstep, const Site& site);

  // What a lookup of (name, idx) by looker in superstep s finds by now, and whether that is final.
  Found find(const std::string& name, int idx, int looker, long superstep) const;
  // Decides lookup l if it can be decided; its state (pending if not yet).
  Lookup::State decide(int l);

  // After progress (a process entered a sync or reached bsp_end), an allocation or a free:
  // the lookups decided unknown and the double allocations decided since the last call, each
  // returned once.
  std::vector<int> take_unknown();
  std::vector<Conflict> take_conflicts();

  const Allocation& allocation(int a) const { return allocs_[static_cast<std::size_t>(a)]; }
  const Lookup& lookup_at(int l) const { return lookups_[static_cast<std::size_t>(l)]; }
  bool is_lookup(int l) const { return l >= 0 && static_cast<std::size_t>(l) < lookups_.size(); }
  // The allocations of (name, idx) freed in a superstep <= s (for saying why a lookup is unknown).
  std::vector<int> freed_by(const std::string& name, int idx, long superstep) const;

 private:
  bool everyone_passed(long superstep) const;
  int p_;
  std::function<bool(int, long)> passed_;
  std::vector<Allocation> allocs_;
  std::vector<Lookup> lookups_;
  std::map<std::pair<std::string, int>, std::vector<int>> by_name_;  // allocations of a name
  std::map<std::pair<int, int>, int> by_region_;                     // (owner, region) -> allocation
  struct Recent {                                                    // per looker: the lookups of its current superstep
    long superstep = -1;
    std::map<std::pair<std::string, int>, int> lookups;
  };
  std::vector<Recent> recent_;
  std::vector<int> pending_lookups_;
  std::vector<int> unknown_;                        // decided unknown, not yet taken
  std::vector<std::pair<int, int>> pending_pairs_;  // allocations of one name not decided yet
  std::vector<Conflict> conflicts_;                 // decided, not yet taken
};

}  // namespace bspcheck::rt
