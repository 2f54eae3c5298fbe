#include "runtime/isolation/snapshot_helper.hpp"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>

#include <cstring>

#include "runtime/isolation/raw_syscall.hpp"
#include "runtime/isolation/written_pages.hpp"

namespace bspcheck::rt::snapshot {

namespace {

__attribute__((no_sanitize("address"))) bool page_is_zero(std::uintptr_t page) {
  const auto* w = reinterpret_cast<const std::uint64_t*>(page);
  std::uint64_t any = 0;
  for (std::size_t k = 0; k < kPage / 8; ++k) any |= w[k];
  return any == 0;
}

// The zero spans of region r (whole pages of an anonymous mapping, two or more in a row), given
// back to the kernel: they read as zeros still, and are no longer resident.
void find_zero_spans(Vault& v, Region& r) {
  r.zero_first = r.zero_end = v.nzero;
  if (!r.anonymous || r.lo % kPage != 0 || r.hi % kPage != 0) return;
  for (std::uintptr_t at = r.lo; at < r.hi;) {
    if (!page_is_zero(at)) {
      at += kPage;
      continue;
    }
    std::uintptr_t end = at + kPage;
    while (end < r.hi && page_is_zero(end)) end += kPage;
    if (end - at >= 2 * kPage && v.nzero < kMaxZeroSpans) {
      v.zero[v.nzero++] = Piece{at, end};
      raw_syscall(SYS_madvise, static_cast<long>(at), static_cast<long>(end - at), MADV_DONTNEED);
    }
    at = end;
  }
  r.zero_end = v.nzero;
}

// v.by_address: the regions in address order, merging [0, nregions) with the shadow's regions.
void order_regions(Vault& v) {
  int a = 0, b = v.nregions, k = 0;
  while (a < v.nregions || b < v.nall)
    v.by_address[k++] = b == v.nall || (a < v.nregions && v.regions[a].lo < v.regions[b].lo) ? a++ : b++;
}

// Registers every saved region for write tracking and protects its pages, so that a restore copies
// back only what the runs wrote (written_pages.hpp); v.tracking says whether it did. Only where much
// is saved (open_write_tracking opens nothing below kTrackWritesFrom): a small program's copy costs
// no more than the scan and the first write's faults (the tiny program of
// bench/bench_sanitizer_workers.sh, 600 KB saved: the same CPU time either way).
void start_write_tracking(Vault& v) {
  v.tracking = false;
  if (v.track_fd < 0 || v.nall == 0) return;
  order_regions(v);
  plan_track_spans(v);
  for (int i = 0; i < v.nall; ++i)
    if (!track_writes(v, v.regions[i].lo, v.regions[i].hi)) return;
  v.tracking = protect_saved_pages(v);
}

__attribute__((no_sanitize("address"))) void save_memory(Vault& v) {
  v.nzero = 0;
  for (int i = 0; i < v.nall; ++i) {
    Region& r = v.regions[i];
    copy_bytes(reinterpret_cast<void*>(v.store_lo + r.at), reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
    find_zero_spans(v, r);
  }
  start_write_tracking(v);
}

// Calls on_page(page) for each resident page of [lo, hi), asking mincore `window` pages at a time
// into `resident`; a window mincore cannot answer for (not expected) is zeroed whole, after
// before_zeroing(): correct, only slower. Unchecked by AddressSanitizer, as the restore's other
// reads of the moment's memory and of the vault are.
template <typename OnPage, typename BeforeZeroing>
__attribute__((no_sanitize("address"))) void for_each_resident_page(unsigned char* resident, std::size_t window,
                                                                    std::uintptr_t lo, std::uintptr_t hi,
                                                                    OnPage on_page, BeforeZeroing before_zeroing) {
  for (std::uintptr_t at = lo; at < hi;) {
    const std::uintptr_t len = hi - at < window * kPage ? hi - at : window * kPage;
    if (raw_syscall(SYS_mincore, static_cast<long>(at), static_cast<long>(len), reinterpret_cast<long>(resident)) !=
        0) {
      before_zeroing();
      zero_bytes(reinterpret_cast<void*>(at), len);
    } else {
      for (std::uintptr_t k = 0; k < len / kPage; ++k)
        if (resident[k] & 1) on_page(at + k * kPage);
    }
    at += len;
  }
}

}  // namespace

// Zeros the resident pages of [lo, hi) that are not zeros; the others read as zeros already.
// `resident` holds mincore's answer for `window` pages at a time. A page that was only read is
// resident too, as the kernel's shared page of zeros (AddressSanitizer's leak check reads every
// page of its allocator): writing it would give it a page of its own.
void clear_resident(unsigned char* resident, std::size_t window, std::uintptr_t lo, std::uintptr_t hi) {
  for_each_resident_page(
      resident, window, lo, hi,
      [](std::uintptr_t page) {
        if (!page_is_zero(page)) zero_bytes(reinterpret_cast<void*>(page), kPage);
      },
      [] {});
}
void clear_resident(Vault& v, std::uintptr_t lo, std::uintptr_t hi) {
  clear_resident(v.resident, kMincoreWindow, lo, hi);
}

// Whether any page of the machine is swapped out: a swapped-out page of ours is not resident,
// whatever it holds. (A page swapped out between this and the restore's mincore, microseconds
// later with every signal blocked, would be missed: a run's pages are the last ones the kernel
// takes.)
bool swap_in_use() {
  struct sysinfo info {};
  return raw_syscall(SYS_sysinfo, reinterpret_cast<long>(&info)) != 0 || info.totalswap != info.freeswap;
}

namespace {

// A zero span of the moment, after a run: its resident pages that are not zeros are zeroed (a run
// that wrote them is likely to write them again, and keeps them); those that read as zeros are
// given back to the kernel. These are the pages an earlier run wrote and this one left alone, or
// the kernel's shared page of zeros where a run only read (LeakSanitizer's check of a worker's
// first run reads every page of the allocator's regions): left resident, every later restore
// would read them all again to find them zeros, about 1,500 pages of a small program built with
// AddressSanitizer.
void clear_zero_span(Vault& v, std::uintptr_t lo, std::uintptr_t hi) {
  std::uintptr_t drop_lo = 0, drop_hi = 0;  // the zero pages in a row not yet given back
  const auto drop = [&] {
    if (drop_hi > drop_lo)
      raw_syscall(SYS_madvise, static_cast<long>(drop_lo), static_cast<long>(drop_hi - drop_lo), MADV_DONTNEED);
    drop_lo = drop_hi = 0;
  };
  for_each_resident_page(
      v.resident, kMincoreWindow, lo, hi,
      [&](std::uintptr_t page) {
        if (!page_is_zero(page)) return zero_bytes(reinterpret_cast<void*>(page), kPage);
        if (drop_hi != page) drop();
        if (drop_hi == 0) drop_lo = page;
        drop_hi = page + kPage;
      },
      drop);
  drop();
}

// Bytes [lo, hi) of region r back from the store.
__attribute__((no_sanitize("address"))) void copy_from_store(const Vault& v, const Region& r, std::uintptr_t lo,
                                                             std::uintptr_t hi) {
  copy_bytes(reinterpret_cast<void*>(lo), reinterpret_cast<const void*>(v.store_lo + r.at + (lo - r.lo)), hi - lo);
}

// Region r back from the store: its zero spans cleared where a run made them resident (or, with
// swap, copied like the rest), everything else copied.
void restore_region(Vault& v, const Region& r, bool copy_zero_spans) {
  const auto copy = [&](std::uintptr_t lo, std::uintptr_t hi) { copy_from_store(v, r, lo, hi); };
  if (copy_zero_spans) return copy(r.lo, r.hi);
  std::uintptr_t at = r.lo;
  for (int z = r.zero_first; z < r.zero_end; ++z) {
    copy(at, v.zero[z].lo);
    clear_zero_span(v, v.zero[z].lo, v.zero[z].hi);
    at = v.zero[z].hi;
  }
  copy(at, r.hi);
}

// Pages [lo, hi) of region r, which some run wrote, back from the store: zeros where they lie in the
// region's zero spans, the saved bytes elsewhere.
__attribute__((no_sanitize("address"))) void put_back(Vault& v, const Region& r, std::uintptr_t lo, std::uintptr_t hi) {
  const auto copy = [&](std::uintptr_t a, std::uintptr_t b) { copy_from_store(v, r, a, b); };
  for (int z = r.zero_first; z < r.zero_end && lo < hi; ++z) {
    const Piece& span = v.zero[z];
    if (span.hi <= lo) continue;
    if (span.lo >= hi) break;
    if (span.lo > lo) copy(lo, span.lo);
    const std::uintptr_t from = span.lo > lo ? span.lo : lo, to = span.hi < hi ? span.hi : hi;
    zero_bytes(reinterpret_cast<void*>(from), to - from);
    lo = to;
  }
  if (lo < hi) copy(lo, hi);
}

// The parts of the regions within [lo, hi), from the k-th by address on, whose mapping is not
// registered (the run replaced it, or unmapped it and the restore mapped it anew): copied back
// whole, then registered and protected, so that only what later runs write there comes back.
void restore_untracked(Vault& v, int k, std::uintptr_t lo, std::uintptr_t hi) {
  for (int j = k; j < v.nall && v.regions[v.by_address[j]].lo < hi; ++j) {
    const Region& r = v.regions[v.by_address[j]];
    const std::uintptr_t a = lo > r.lo ? lo : r.lo, b = hi < r.hi ? hi : r.hi;
    if (a >= b) continue;
    put_back(v, r, a, b);
    if (!track_writes(v, a, b) || !protect_pages(v, a, b)) v.tracking = false;
  }
}

// The regions back from the store where some run wrote them since the moment (written_pages.hpp),
// and whole where their mapping is not registered: whatever the scan does not show registered and
// unwritten is copied. False, with nothing known of what is restored, when the kernel refused a
// scan.
bool restore_written(Vault& v) {
  int k = 0;              // the first region, by address, that may end after `at`
  std::uintptr_t at = 0;  // everything below is restored
  const auto advance = [&](std::uintptr_t to) {
    while (k < v.nall && v.regions[v.by_address[k]].hi <= at) ++k;
    restore_untracked(v, k, at, to);
    at = to;
  };
  for (int s = 0; s < v.ntrack_spans; ++s) {
    for (std::uintptr_t from = v.track_spans[s].lo, to = v.track_spans[s].hi; from < to;) {
      std::uintptr_t next = to;
      const long n = list_written(v, from, to, next);
      if (n < 0) return false;
      for (long w = 0; w < n; ++w) {
        const std::uintptr_t lo = v.written[w].lo, hi = v.written[w].hi;
        advance(lo);  // what lies before the run is not registered
        for (int j = k; written_run(v.written[w]) && j < v.nall && v.regions[v.by_address[j]].lo < hi; ++j) {
          const Region& r = v.regions[v.by_address[j]];
          if (r.hi > lo) put_back(v, r, lo > r.lo ? lo : r.lo, hi < r.hi ? hi : r.hi);
        }
        at = hi;
      }
      if (n < kMaxWrittenRuns) break;
      from = next;
    }
  }
  advance(~std::uintptr_t{0});
  return true;
}

// The shadow of [lo, hi) back to zeros, as it was before the run mapped the range: whole pages
// where resident, bytes at the ends (which share their pages with the shadow of neighbours).
void clear_shadow(Vault& v, std::uintptr_t lo, std::uintptr_t hi) {
  const std::uintptr_t s_lo = v.shadow.shadow_of(lo), s_hi = v.shadow.shadow_of(hi - 1) + 1;
  const std::uintptr_t whole_lo = page_up(s_lo), whole_hi = s_hi & ~(kPage - 1);
  if (whole_lo >= whole_hi) return zero_bytes(reinterpret_cast<void*>(s_lo), s_hi - s_lo);
  zero_bytes(reinterpret_cast<void*>(s_lo), whole_lo - s_lo);
  clear_resident(v, whole_lo, whole_hi);
  zero_bytes(reinterpret_cast<void*>(whole_hi), s_hi - whole_hi);
}

long protection(std::uint8_t perms) {
  return ((perms & kRead) ? PROT_READ : 0) | ((perms & kWrite) ? PROT_WRITE : 0) | ((perms & kExec) ? PROT_EXEC : 0);
}

__attribute__((no_sanitize("address"))) void restore_memory(Vault& v) {
  sigset_t all;
  std::memset(&all, 0xff, sizeof all);
  raw_syscall(SYS_rt_sigprocmask, SIG_SETMASK, reinterpret_cast<long>(&all), 0, 8);
  for (int i = 0; i < v.nunmap; ++i)
    raw_syscall(SYS_munmap, static_cast<long>(v.unmap[i].lo), static_cast<long>(v.unmap[i].hi - v.unmap[i].lo));
  for (int i = 0; i < v.nregions; ++i) {
    const Region& r = v.regions[i];
    if (!r.recreate) continue;
    raw_syscall(SYS_mmap, static_cast<long>(r.lo), static_cast<long>(r.hi - r.lo), PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  }
  for (int i = 0; i < v.nreserves; ++i)
    raw_syscall(SYS_mmap, static_cast<long>(v.reserves[i].lo), static_cast<long>(v.reserves[i].hi - v.reserves[i].lo),
                protection(v.reserves[i].perms), MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
  raw_syscall(SYS_brk, static_cast<long>(v.brk));
  if (v.close_gaps) {
    long from = 0;
    for (int i = 0; i < v.nfds; from = v.fds[i++].fd + 1)
      if (v.fds[i].fd > from) raw_syscall(SYS_close_range, from, v.fds[i].fd - 1, 0);
    raw_syscall(SYS_close_range, from, ~0U, 0);
  }
  for (int i = 0; i < v.nclose; ++i) raw_syscall(SYS_close, v.close_fds[i]);
  // The standard streams are set up by the next run, positioned (runtime/isolation/fork_server.cpp).
  for (int i = 0; i < v.nfds; ++i)
    if (v.fds[i].offset >= 0 && v.fds[i].fd > 2) raw_syscall(SYS_lseek, v.fds[i].fd, v.fds[i].offset, SEEK_SET);
  // The dispositions the run changed: through the C library, whose sigaction supplies its own
  // signal return trampoline; before the copy, which then undoes whatever this writes to errno.
  for (int s = 1; s <= 64; ++s)
    if (v.touched_signals >> (s - 1) & 1) __sigaction(s, &v.dispositions[s], nullptr);
  v.touched_signals = 0;
  if (v.signal_stack_touched) raw_syscall(SYS_sigaltstack, reinterpret_cast<long>(&v.signal_stack), 0);
  v.signal_stack_touched = false;
  const bool grown = v.stack_lo < v.stack_saved_lo;  // by some run: zeros, as in a fresh process
  const bool copy_zero_spans = (v.nzero > 0 || grown) && swap_in_use();
  // The shadow of what the run mapped first: a saved mapping the run replaced is among it, and
  // its saved shadow then comes back with the copy.
  for (int i = 0; i < v.nshadow_clears; ++i) clear_shadow(v, v.shadow_clears[i].lo, v.shadow_clears[i].hi);
  if (!v.tracking || !restore_written(v)) {
    v.tracking = false;  // from now on every restore copies everything
    for (int i = 0; i < v.nall; ++i) restore_region(v, v.regions[i], copy_zero_spans);
  }
  if (grown) {
    if (copy_zero_spans) zero_bytes(reinterpret_cast<void*>(v.stack_lo), v.stack_saved_lo - v.stack_lo);
    else clear_resident(v, v.stack_lo, v.stack_saved_lo);
  }
  for (int i = 0; i < v.nregions; ++i) {
    Region& r = v.regions[i];
    if (!r.recreate) continue;
    r.recreate = false;
    const long prot = protection(r.perms);
    if (prot != (PROT_READ | PROT_WRITE))
      raw_syscall(SYS_mprotect, static_cast<long>(r.lo), static_cast<long>(r.hi - r.lo), prot);
  }
  raw_syscall(SYS_rt_sigprocmask, SIG_SETMASK, reinterpret_cast<long>(&v.mask), 0, 8);
}

}  // namespace

__attribute__((no_sanitize("address"))) void helper_entry(fctx::transfer_t t) {
  Vault& v = *g_vault;
  if (reinterpret_cast<std::uintptr_t>(t.data) == kDoSave) {
    v.main = t.fctx;
    save_memory(v);
    fctx::jump_fcontext(v.main, reinterpret_cast<void*>(kSaved));
  } else {
    restore_memory(v);
    fctx::jump_fcontext(v.main, reinterpret_cast<void*>(kRestored));
  }
  __builtin_trap();  // never resumed: each use of the helper starts it anew
}

void run_helper(std::uintptr_t what) {
  Vault& v = *g_vault;
  void* top = v.helper_stack + kHelperStack;
  const fctx::fcontext_t helper = fctx::make_fcontext(top, kHelperStack, &helper_entry);
  const fctx::transfer_t back = fctx::jump_fcontext(helper, reinterpret_cast<void*>(what));
  (void)back;
}

}  // namespace bspcheck::rt::snapshot
