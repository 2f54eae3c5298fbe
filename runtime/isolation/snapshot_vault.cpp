// The vault's mapping; what the interposed functions tell it of a run (the note_* functions of
// process_snapshot.hpp); and the shelf (ProcessSnapshot::shelve), whose entries live in it.
#include "runtime/isolation/snapshot_vault.hpp"

#include <sys/mman.h>

#include <algorithm>

#include "runtime/base/shelf.hpp"
#include "runtime/isolation/process_snapshot.hpp"

namespace bspcheck::rt {

namespace snapshot {

Vault* g_vault = nullptr;
int g_threads_started = 0;

// Maps `bytes` with a PROT_NONE page at each end, so that the kernel never merges the mapping with
// a neighbour that a run makes or removes. It goes far below where the kernel places mappings
// (top down from below the stack), so that a run's own mappings land where they land in a fresh
// child, which has none of these.
char* map_apart(std::size_t bytes) {
  static std::uintptr_t next_hint = std::uintptr_t{0x2000} << 32;
  void* m = MAP_FAILED;
  for (int attempt = 0; attempt < 8 && m == MAP_FAILED; ++attempt) {
    m = mmap(reinterpret_cast<void*>(next_hint), bytes, PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (m == MAP_FAILED) next_hint += std::uintptr_t{1} << 36;
  }
  if (m == MAP_FAILED) m = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) return nullptr;
  next_hint = reinterpret_cast<std::uintptr_t>(m) + bytes + (std::uintptr_t{1} << 30);
  if (mprotect(static_cast<char*>(m) + kPage, bytes - 2 * kPage, PROT_READ | PROT_WRITE) != 0) {
    munmap(m, bytes);
    return nullptr;
  }
  return static_cast<char*>(m);
}

Vault* map_vault() {
  const std::size_t bytes = (sizeof(Vault) + kPage - 1) / kPage * kPage + 2 * kPage;
  char* m = map_apart(bytes);
  if (!m) return nullptr;
  auto* v = reinterpret_cast<Vault*>(m + kPage);
  v->lo = reinterpret_cast<std::uintptr_t>(m);
  v->hi = v->lo + bytes;
  return v;
}

void unmap_vault(Vault* v) { munmap(reinterpret_cast<void*>(v->lo), v->hi - v->lo); }

bool subtract_range(Piece* list, int& n, int cap, std::uintptr_t lo, std::uintptr_t hi) {
  int end = n;
  bool fits = true;
  for (int i = 0; i < n; ++i) {
    const Piece c = list[i];
    if (!overlaps(c.lo, c.hi, lo, hi)) continue;
    list[i] = c.lo < lo ? Piece{c.lo, lo} : Piece{c.hi, c.hi};  // the part below, perhaps empty
    if (c.hi <= hi) continue;
    if (c.lo >= lo) list[i] = Piece{hi, c.hi};  // only a part above
    else if (end < cap) list[end++] = Piece{hi, c.hi};
    else fits = false;
  }
  n = 0;
  for (int i = 0; i < end; ++i)
    if (list[i].lo < list[i].hi) list[n++] = list[i];
  return fits;
}

}  // namespace snapshot

using namespace snapshot;  // the snapshot's internals (snapshot_vault.hpp)

namespace {

// Whether [lo, hi) touches a mapping of the moment (the vault and the store included).
bool touches_kept(const Vault& v, std::uintptr_t lo, std::uintptr_t hi) {
  int a = 0, b = v.nkeep;  // the first kept range ending after lo
  while (a < b) {
    const int m = (a + b) / 2;
    if (v.keep[m].hi <= lo) a = m + 1;
    else b = m;
  }
  return a < v.nkeep && v.keep[a].lo < hi;
}

// Removes [lo, hi) from the ranges made since the moment; a range that no longer fits the record
// leaves the run untracked, so its end reads the maps.
void forget_created(Vault& v, std::uintptr_t lo, std::uintptr_t hi) {
  if (!subtract_range(v.created, v.ncreated, kMaxCreated, lo, hi)) v.untracked = true;
}

// Drops shelf entries overlapping [lo, hi), which a run unmapped or mapped over: whatever is
// left of them is then a mapping no record explains, and the end of the run reads the maps.
void drop_shelved(Vault& v, std::uintptr_t lo, std::uintptr_t hi) {
  int n = 0;
  for (int i = 0; i < v.nshelved; ++i)
    if (!overlaps(v.shelf[i].lo, v.shelf[i].hi, lo, hi)) v.shelf[n++] = v.shelf[i];
  v.nshelved = n;
}

}  // namespace

bool ProcessSnapshot::shelve(void* addr, std::size_t bytes, std::uint64_t key) {
  Vault* vp = g_vault;
  if (!vp) return false;
  Vault& v = *vp;
  const auto lo = reinterpret_cast<std::uintptr_t>(addr), hi = page_up(lo + bytes);
  for (int i = 0; i < v.nshelved; ++i) {
    Shelved& e = v.shelf[i];
    if (e.lo != lo || e.hi != hi) continue;
    if (!e.taken || e.spoiled) return false;
    e.taken = false;
    e.key = key;
    return true;
  }
  // Otherwise it must be a mapping this run made, whole, or a restore would not have unmapped it.
  bool made = false;
  for (int i = 0; i < v.ncreated && !made; ++i) made = v.created[i].lo <= lo && hi <= v.created[i].hi;
  if (!made || v.nshelved == kShelfSize) return false;
  forget_created(v, lo, hi);
  v.shelf[v.nshelved++] = Shelved{lo, hi, key, false, false};
  return true;
}

bool ProcessSnapshot::shelving() { return g_vault != nullptr; }

void* ProcessSnapshot::unshelve(std::size_t bytes, std::uint64_t key) {
  Vault* vp = g_vault;
  if (!vp) return nullptr;
  Vault& v = *vp;
  const std::uintptr_t size = page_up(bytes);
  for (int i = 0; i < v.nshelved; ++i) {
    Shelved& e = v.shelf[i];
    if (e.taken || e.spoiled || e.hi - e.lo != size || e.key != key) continue;
    e.taken = true;
    return reinterpret_cast<void*>(e.lo);
  }
  // None fits: the others go, so that the caller's mmap gets the address a fresh child's would.
  int n = 0;
  for (int i = 0; i < v.nshelved; ++i) {
    const Shelved& e = v.shelf[i];
    if (e.taken) v.shelf[n++] = e;
    else raw_syscall(SYS_munmap, static_cast<long>(e.lo), static_cast<long>(e.hi - e.lo));
  }
  v.nshelved = n;
  return nullptr;
}

void note_signal_disposition_changed(int sig) {
  if (g_vault && sig >= 1 && sig <= 64) g_vault->touched_signals |= std::uint64_t{1} << (sig - 1);
}

void note_signal_stack_changed() {
  if (g_vault) g_vault->signal_stack_touched = true;
}

void note_thread_started() { ++g_threads_started; }

void note_mapped(const void* addr, std::size_t length) {
  Vault* v = g_vault;
  if (!v) return;
  const auto lo = reinterpret_cast<std::uintptr_t>(addr), hi = page_up(lo + length);
  drop_shelved(*v, lo, hi);        // MAP_FIXED over a shelved mapping
  if (touches_kept(*v, lo, hi)) {  // MAP_FIXED over a mapping of the moment
    v->untracked = true;
    return;
  }
  forget_created(*v, lo, hi);  // MAP_FIXED over one made since
  if (v->shadow.present) {     // its shadow is cleared at the restore, even if the run unmaps it
    if (v->nmapped == kMaxCreated) {
      Piece& all = v->mapped[kMaxCreated - 1];  // one range over the last and this: cleared alike
      all = Piece{std::min(all.lo, lo), std::max(all.hi, hi)};
    } else {
      v->mapped[v->nmapped++] = Piece{lo, hi};
    }
  }
  if (v->ncreated == kMaxCreated) v->untracked = true;
  else v->created[v->ncreated++] = Piece{lo, hi};
}

void note_unmapped(const void* addr, std::size_t length) {
  Vault* v = g_vault;
  if (!v) return;
  const auto lo = reinterpret_cast<std::uintptr_t>(addr), hi = page_up(lo + length);
  if (touches_kept(*v, lo, hi)) v->untracked = true;
  forget_created(*v, lo, hi);
  drop_shelved(*v, lo, hi);
}

void note_protection_changed(const void* addr, std::size_t length) {
  Vault* v = g_vault;
  if (!v) return;
  const auto lo = reinterpret_cast<std::uintptr_t>(addr), hi = page_up(lo + length);
  if (touches_kept(*v, lo, hi)) v->untracked = true;
  for (int i = 0; i < v->nshelved; ++i)
    if (overlaps(v->shelf[i].lo, v->shelf[i].hi, lo, hi)) v->shelf[i].spoiled = true;
}

// The snapshot keeps the shelf for the floors below it (runtime/base/shelf.hpp): installed when
// the library loads; shelving() says whether a snapshot was taken.
namespace {
constexpr ShelfKeeper kSnapshotShelf{&ProcessSnapshot::shelving, &ProcessSnapshot::clear_as_fresh,
                                     &ProcessSnapshot::shelve, &ProcessSnapshot::unshelve};
[[maybe_unused]] const bool kShelfInstalled = (shelf_keeper() = &kSnapshotShelf, true);
}  // namespace

}  // namespace bspcheck::rt
