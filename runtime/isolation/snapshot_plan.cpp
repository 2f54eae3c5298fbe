#include "runtime/isolation/snapshot_plan.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>

#include <algorithm>
#include <utility>

#include "runtime/isolation/main_stack.hpp"
#include "runtime/isolation/process_snapshot.hpp"
#include "runtime/isolation/proc_self.hpp"
#include "runtime/isolation/raw_syscall.hpp"

namespace bspcheck::rt {

namespace snapshot {

namespace {

// ProcessSnapshot::leave_unsaved's mappings; fixed before take(), so the same in every run.
constexpr int kMaxUnsaved = 4;
Piece g_unsaved[kMaxUnsaved];
int g_nunsaved = 0;

bool left_unsaved(const Mapping& m) {
  for (int i = 0; i < g_nunsaved; ++i)
    if (g_unsaved[i].lo == m.lo && g_unsaved[i].hi == m.hi) return true;
  return false;
}

// Appends [lo, hi) to the shadow a restore clears; false when the list is full.
bool clear_shadow_of(Vault& v, std::uintptr_t lo, std::uintptr_t hi) {
  if (lo >= hi) return true;
  if (v.nshadow_clears == kMaxShadowClears) return false;
  v.shadow_clears[v.nshadow_clears++] = Piece{lo, hi};
  return true;
}

// Under AddressSanitizer: the shadow of every saved region, as regions of its own after them
// (merged where neighbours share a shadow page); returns the bytes saved, these included.
std::size_t add_shadow_regions(Vault& v, std::size_t total) {
  v.nall = v.nregions;
  if (!v.shadow.present) return total;
  for (int i = 0; i < v.nregions; ++i) {
    const std::uintptr_t lo = v.shadow.shadow_of(v.regions[i].lo) & ~(kPage - 1);
    const std::uintptr_t hi = page_up(v.shadow.shadow_of(v.regions[i].hi - 1) + 1);
    Region& last = v.regions[v.nall - 1];
    if (v.nall > v.nregions && last.hi >= lo) {
      total = last.at + ((hi - last.lo + 63) & ~std::size_t{63});
      last.hi = hi;
      continue;
    }
    v.regions[v.nall++] = Region{lo, hi, total, kRead | kWrite | kPrivate, false, true, 0, 0};
    total += hi - lo;
  }
  return total;
}

// The low end of the main stack's mapping now: pages just below the known end are probed with
// mincore, which fails for a page that is not mapped. The usual answer (no growth) takes one probe;
// a grown stack is found by bisection (it is one mapping, with nothing else in its reach).
std::uintptr_t stack_low_end(Vault& v) {
  unsigned char vec = 0;
  const std::uintptr_t below = v.stack_lo - kPage;
  if (v.stack_lo == 0 || v.stack_saved_lo - v.stack_lo >= v.stack_reach ||
      raw_syscall(SYS_mincore, static_cast<long>(below), static_cast<long>(kPage), reinterpret_cast<long>(&vec)) != 0)
    return v.stack_lo;
  return main_stack_lowest_page(below, v.stack_saved_lo - v.stack_reach);
}

// A reservation of the moment (no access: AddressSanitizer's allocator reserves its regions so)
// that the run made accessible in part, from now[c...]: mapped anew as it was, and the shadow of
// the parts made accessible (which the allocator poisoned) cleared.
bool reserve_again(Vault& v, const Mapping& m, int c, int n) {
  if (v.nreserves == kMaxReserves) return false;
  v.reserves[v.nreserves++] = m;
  for (int j = c; j < n && v.now[j].lo < m.hi; ++j)
    if (v.now[j].perms != m.perms && !clear_shadow_of(v, std::max(v.now[j].lo, m.lo), std::min(v.now[j].hi, m.hi)))
      return false;
  return true;
}

// The mappings to remove (and saved ones to map anew) at the end of a run, from /proc/self/maps:
// every part of a mapping outside the kept ranges goes; every saved mapping must still be there
// as it was, and a writable one that is not is mapped anew and filled from the store.
bool plan_from_maps(Vault& v) {
  // Mappings made since the snapshot: every part of a mapping outside the kept ranges (the saved
  // set of mappings, the vault, the store). The heap is set back by brk; the main stack may have
  // grown, which is harmless.
  const int n = read_mappings(v.maps_text, kMapsText, v.now, kMaxMappings);
  if (n < 0) return false;
  int k = 0;
  for (int i = 0; i < n; ++i) {
    const Mapping& c = v.now[i];
    if (c.kind == Kind::special || c.kind == Kind::heap || c.kind == Kind::stack || v.shadow.holds(c.lo, c.hi))
      continue;
    while (k < v.nkeep && v.keep[k].hi <= c.lo) ++k;
    std::uintptr_t at = c.lo;
    for (int j = k; at < c.hi;) {
      if (j < v.nkeep && v.keep[j].lo <= at) {
        at = v.keep[j++].hi;
        continue;
      }
      const std::uintptr_t next = j < v.nkeep && v.keep[j].lo < c.hi ? v.keep[j].lo : c.hi;
      if (v.nunmap == kMaxMappings) return false;
      v.unmap[v.nunmap++] = Piece{at, next};
      at = next;
    }
  }
  // Every saved mapping must still be there as it was; a writable one that is not is mapped anew
  // and filled from the store, any other makes the moment unreachable.
  int c = 0, r = 0;
  for (int i = 0; i < v.nmappings; ++i) {
    Mapping& m = v.mappings[i];
    if (m.kind == Kind::special || m.kind == Kind::stack || m.kind == Kind::heap) continue;
    if (overlaps(m.lo, m.hi, v.lo, v.hi) || v.shadow.holds(m.lo, m.hi)) continue;
    while (c < n && v.now[c].hi <= m.lo) ++c;
    std::uintptr_t covered = m.lo;
    for (int j = c; j < n && v.now[j].lo < m.hi; ++j) {
      const Mapping& now = v.now[j];
      const bool same = now.lo <= covered && now.perms == m.perms && now.inode == m.inode &&
                        (m.inode == 0 || now.offset + (m.lo - now.lo) == m.offset);
      if (!same) break;
      covered = now.hi;
    }
    if (covered >= m.hi) continue;
    if (v.shadow.present && !(m.perms & kWrite) && m.inode == 0) {  // the sanitizer's allocator grew
      if (!reserve_again(v, m, c, n)) return false;
      continue;
    }
    while (r < v.nregions && v.regions[r].hi <= m.lo) ++r;
    if (r == v.nregions || v.regions[r].lo != m.lo || v.regions[r].hi != m.hi) return false;  // not saved
    v.regions[r].recreate = true;
    if (v.nunmap == kMaxMappings) return false;
    v.unmap[v.nunmap++] = Piece{m.lo, m.hi};
    m.inode = 0;  // from now on an anonymous mapping holding the saved bytes
    m.offset = 0;
  }
  return true;
}

// Takes the shelved mappings the next run may have out of the plan's unmapping.
bool spare_shelved(Vault& v) {
  for (int s = 0; s < v.nshelved; ++s) {
    const Shelved& e = v.shelf[s];
    if (e.taken) continue;
    if (!subtract_range(v.unmap, v.nunmap, kMaxMappings, e.lo, e.hi)) return false;
  }
  return true;
}

}  // namespace

bool plan_saving(Vault& v, std::uintptr_t here, std::size_t& total) {
  v.shadow = shadow_layout();
  v.stack_saved_lo = v.stack_lo = 0;
  total = 0;
  v.nregions = 0;
  for (int i = 0; i < v.nmappings; ++i) {
    const Mapping& m = v.mappings[i];
    if (m.kind == Kind::special || (m.perms & (kWrite | kPrivate)) != (kWrite | kPrivate)) continue;
    if (overlaps(m.lo, m.hi, v.lo, v.hi)) continue;  // the vault itself (its guards keep it apart)
    if (v.shadow.holds(m.lo, m.hi)) continue;        // saved in part below, as the shadow of the rest
    if (left_unsaved(m)) continue;
    Region& r = v.regions[v.nregions++];
    r = Region{m.lo, m.hi, total, m.perms, false, m.inode == 0, 0, 0};
    if (m.kind == Kind::stack) {
      if (here < m.lo || here >= m.hi) return false;
      v.stack_saved_lo = v.stack_lo = m.lo;
      rlimit stack_limit{};
      const std::size_t most = std::size_t{1} << 30;
      v.stack_reach =
          getrlimit(RLIMIT_STACK, &stack_limit) == 0 && stack_limit.rlim_cur < most ? stack_limit.rlim_cur : most;
      v.stack_reach = v.stack_reach > m.hi - m.lo ? (v.stack_reach - (m.hi - m.lo)) & ~(kPage - 1) : 0;
      v.stack_reach = v.stack_reach < m.lo ? v.stack_reach : 0;
    }
    total += (r.hi - r.lo + 63) & ~std::size_t{63};
  }
  total = add_shadow_regions(v, total);
  return true;
}

void plan_keeping(Vault& v) {
  v.nkeep = 0;
  Piece own[2] = {Piece{v.lo, v.hi}, Piece{v.store_lo - kPage, v.store_hi}};
  if (own[1].lo < own[0].lo) std::swap(own[0], own[1]);
  for (int i = 0, o = 0; i < v.nmappings || o < 2;) {
    Piece next;
    if (o < 2 && (i == v.nmappings || own[o].lo < v.mappings[i].lo)) next = own[o++];
    else next = Piece{v.mappings[i].lo, v.mappings[i].hi}, ++i;
    if (v.nkeep > 0 && v.keep[v.nkeep - 1].hi >= next.lo) {
      if (next.hi > v.keep[v.nkeep - 1].hi) v.keep[v.nkeep - 1].hi = next.hi;
    } else {
      v.keep[v.nkeep++] = next;
    }
  }
  v.heap_lo = 0;
  for (int i = 0; i < v.nmappings; ++i)
    if (v.mappings[i].kind == Kind::heap) v.heap_lo = v.mappings[i].lo;
}

// Under AddressSanitizer, at the end of a run: the shadow of what the run mapped (whether it is
// still mapped or not) and of the main stack's growth goes back to zeros at the restore. False
// when the list is full.
bool plan_shadow_clears(Vault& v) {
  if (!v.shadow.present) return true;
  for (int i = 0; i < v.nunmap; ++i)
    if (!clear_shadow_of(v, v.unmap[i].lo, v.unmap[i].hi)) return false;
  for (int i = 0; i < v.nmapped; ++i)
    if (!clear_shadow_of(v, v.mapped[i].lo, v.mapped[i].hi)) return false;
  v.nmapped = 0;
  // Shelved stacks come back to the next run as fresh ones, their shadow too.
  for (int i = 0; i < v.nshelved; ++i)
    if (!clear_shadow_of(v, v.shelf[i].lo, v.shelf[i].hi)) return false;
  return clear_shadow_of(v, v.stack_lo, v.stack_saved_lo);
}

// The same plan, cheaply when it can be trusted: the run made its mappings through the interposed
// mmap family only (tracked in v.created) and touched no saved one, no library was loaded, and
// the process's size is the moment's plus those mappings and the heap's growth. Otherwise, and
// for whatever the C library mapped itself (setlocale, dlopen), /proc/self/maps says.
bool plan_unmapping(Vault& v) {
  // The main stack's growth stays (the next restore clears it), and is part of the size from now on.
  const std::uintptr_t stack_lo = stack_low_end(v);
  v.vm_pages += (v.stack_lo - stack_lo) / kPage;
  v.stack_lo = stack_lo;
  if (!v.untracked && loaded_objects() == v.loaded_objects && v.heap_lo != 0) {
    std::uint64_t expected = v.vm_pages;
    const auto brk_now = static_cast<std::uintptr_t>(raw_syscall(SYS_brk, 0));
    expected -= (page_up(v.brk) - v.heap_lo) / kPage;
    expected += (page_up(brk_now) - v.heap_lo) / kPage;
    for (int i = 0; i < v.ncreated; ++i) expected += (v.created[i].hi - v.created[i].lo) / kPage;
    for (int i = 0; i < v.nshelved; ++i) expected += (v.shelf[i].hi - v.shelf[i].lo) / kPage;
    if (vm_pages(v.statm_fd) == expected) {
      for (int i = 0; i < v.ncreated; ++i) v.unmap[v.nunmap++] = v.created[i];
      for (int i = 0; i < v.nshelved; ++i)
        if (v.shelf[i].taken) v.unmap[v.nunmap++] = Piece{v.shelf[i].lo, v.shelf[i].hi};
      return true;
    }
  }
  return plan_from_maps(v) && spare_shelved(v);
}

}  // namespace snapshot

bool ProcessSnapshot::leave_unsaved(void* addr, std::size_t bytes) {
  using snapshot::g_unsaved, snapshot::g_nunsaved;
  if (snapshot::g_vault || g_nunsaved == snapshot::kMaxUnsaved) return false;
  const auto lo = reinterpret_cast<std::uintptr_t>(addr);
  g_unsaved[g_nunsaved++] = snapshot::Piece{lo, snapshot::page_up(lo + bytes)};
  return true;
}

}  // namespace bspcheck::rt
