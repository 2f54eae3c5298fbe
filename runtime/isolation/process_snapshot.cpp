#include "runtime/isolation/process_snapshot.hpp"

#include <dirent.h>
#include <link.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <boost/context/detail/fcontext.hpp>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include "runtime/base/shelf.hpp"
#include "runtime/isolation/main_stack.hpp"
#include "runtime/isolation/sanitizer_shadow.hpp"

// The C library's sigaction under its internal name: restore() sets dispositions back without
// passing through the interposed sigaction (runtime/isolation/snapshot_interposers.cpp), which would note them again.
extern "C" int __sigaction(int, const struct sigaction*, struct sigaction*);

namespace bspcheck::rt {

namespace fctx = boost::context::detail;

namespace {

// --- system calls without the C library ---------------------------------------------------------
// restore() runs while the C library's memory is being copied back under it: it must not depend
// on that memory (errno, a lazily bound PLT slot), so it makes its system calls itself.

long raw_syscall(long n, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0, long f = 0) {
  register long r10 asm("r10") = d;
  register long r8 asm("r8") = e;
  register long r9 asm("r9") = f;
  long ret;
  asm volatile("syscall"
               : "=a"(ret)
               : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
               : "rcx", "r11", "memory");
  return ret;
}

void copy_bytes(void* to, const void* from, std::size_t n) {
  asm volatile("rep movsb" : "+D"(to), "+S"(from), "+c"(n) : : "memory");
}

void zero_bytes(void* to, std::size_t n) { asm volatile("rep stosb" : "+D"(to), "+c"(n) : "a"(0) : "memory"); }

// --- the vault: what the snapshot keeps, in a mapping of its own that no restore touches --------

constexpr int kMaxMappings = 8192;
constexpr int kMaxFds = 1024;
constexpr std::size_t kMapsText = 2u << 20;
constexpr std::size_t kHelperStack = 128u << 10;
constexpr std::uintptr_t kPage = 4096;
constexpr int kMaxCreated = 1024;
constexpr int kShelfSize = 16;
constexpr int kMaxZeroSpans = 4096;  // AddressSanitizer's allocator has two spans per size class
constexpr int kMaxShadowClears = 1024;
constexpr int kMaxReserves = 256;
constexpr std::size_t kMincoreWindow = 4096;  // pages per mincore call

enum Perm : std::uint8_t { kRead = 1, kWrite = 2, kExec = 4, kPrivate = 8 };
enum class Kind : std::uint8_t { ordinary, stack, heap, special };

struct Mapping {
  std::uintptr_t lo, hi;
  std::uint64_t offset, inode;
  std::uint8_t perms;
  Kind kind;
};

struct Region {  // saved bytes [lo, hi), kept at store + at
  std::uintptr_t lo, hi;
  std::size_t at;
  std::uint8_t perms;
  bool recreate;             // the run removed or replaced its mapping: map it anew before the copy
  bool anonymous;            // no file behind it: a page given back to the kernel reads as zeros
  int zero_first, zero_end;  // its zero spans: Vault::zero[zero_first, zero_end)
};

struct Piece {
  std::uintptr_t lo, hi;
};

// A mapping on the shelf (ProcessSnapshot::shelve): kept across restores for the next run.
struct Shelved {
  std::uintptr_t lo, hi;
  std::uint64_t key;
  bool taken;    // handed to the current run, which must shelve it again or lose it
  bool spoiled;  // its protection was changed: neither shelved again nor handed out
};

struct SavedFd {
  int fd;
  off_t offset;  // -1: not a regular file
  dev_t dev;
  ino_t ino;
};

struct Vault {
  fctx::fcontext_t main;  // the suspended moment of take(), on the main stack
  std::uintptr_t lo, hi;  // this vault's own mapping, guard pages included
  std::uintptr_t store_lo, store_hi;
  std::uintptr_t brk;
  std::size_t saved;
  sigset_t mask;
  struct sigaction dispositions[65];
  std::uint64_t touched_signals;  // bit s: the run changed signal s's disposition
  stack_t signal_stack;           // sigaltstack's at the moment
  bool signal_stack_touched;      // the run called sigaltstack
  // The mappings a run made through the interposed mmap family (runtime/isolation/snapshot_interposers.cpp),
  // so that the end of a run need not read /proc/self/maps (a third of a small run's time): the
  // process's size then tells whether anything else mapped or unmapped.
  std::uint64_t vm_pages;  // /proc/self/statm's size at the moment
  std::uintptr_t heap_lo;  // the start of the heap, whose size the break sets
  int loaded_objects;      // dl_iterate_phdr's count at the moment
  bool untracked;          // a saved mapping was changed, or too many were made, since the moment
  int ncreated;
  Piece created[kMaxCreated];
  int nshelved;
  Shelved shelf[kShelfSize];
  int nmappings, nregions, nfds, nunmap, nclose, nkeep;
  Mapping mappings[kMaxMappings];
  Piece keep[kMaxMappings + 2];  // sorted, disjoint: the saved mappings, the vault, the store
  // [0, nregions): the saved mappings, in address order; [nregions, nall): under AddressSanitizer,
  // the shadow of those (runtime/isolation/sanitizer_shadow.hpp), merged where pages are shared.
  int nall;
  Region regions[2 * kMaxMappings];
  // AddressSanitizer: its layout (present false without it); the shadow a restore clears (of the
  // ranges given, in the program's addresses: what the run mapped); the ranges the run mapped
  // through the interposed mmap family, unmapped since or not (merged when the list is full);
  // the reservations (mappings without access, the allocator's) that the run made accessible in
  // part, mapped anew as they were.
  ShadowLayout shadow;
  int nshadow_clears, nmapped, nreserves;
  Piece shadow_clears[kMaxShadowClears];
  Piece mapped[kMaxCreated];
  Mapping reserves[kMaxReserves];
  Piece unmap[kMaxMappings];
  // Pages of anonymous saved mappings that held only zeros at the moment, in runs of two or more
  // (about half of a small program's saved memory: the heap's free top, zeroed .bss). They are
  // given back to the kernel when the moment is saved and not copied back at a restore: only the
  // pages a run made resident (mincore) are cleared. A page that was swapped out is not resident
  // either, though it may hold a run's writes: while any swap is in use every page is copied back.
  int nzero;
  Piece zero[kMaxZeroSpans];
  unsigned char resident[kMincoreWindow];
  // The main stack is saved whole, from its mapping's low end at the moment (stack_saved_lo) up:
  // what a run leaves below the frame of the moment would otherwise be there in the next run's
  // uninitialised locals of process 0. A run that goes deeper grows the mapping down to stack_lo,
  // which no restore undoes: those pages are cleared (they were fresh zeros in the first run),
  // and counted in the process's size from then on.
  std::uintptr_t stack_saved_lo, stack_lo;
  std::size_t stack_reach;  // how far below stack_saved_lo it may grow (RLIMIT_STACK)
  SavedFd fds[kMaxFds];     // ascending
  // Descriptors a run opened are closed by closing every gap between those of the moment
  // (close_range, Linux 5.9), which needs no listing of /proc/self/fd (20 us here); without
  // close_range the end of a run lists them and closes each.
  bool close_gaps;
  int close_fds[kMaxFds];
  Mapping now[kMaxMappings];  // the mappings at the end of a run
  char maps_text[kMapsText];
  alignas(64) char helper_stack[kHelperStack];
};

Vault* g_vault = nullptr;
int g_threads_started = 0;  // since the snapshot; part of the saved memory, so 0 after each restore

// ProcessSnapshot::leave_unsaved's mappings; fixed before take(), so the same in every run.
constexpr int kMaxUnsaved = 4;
Piece g_unsaved[kMaxUnsaved];
int g_nunsaved = 0;

bool left_unsaved(const Mapping& m) {
  for (int i = 0; i < g_nunsaved; ++i)
    if (g_unsaved[i].lo == m.lo && g_unsaved[i].hi == m.hi) return true;
  return false;
}

// Where the helper context was asked to go.
enum : std::uintptr_t { kDoSave = 1, kDoRestore = 2, kSaved = 3, kRestored = 4 };

// --- reading /proc without allocating ------------------------------------------------------------

// Reads a whole /proc file into buf; returns its length, or -1.
long read_proc(const char* path, char* buf, std::size_t cap) {
  const int fd =
      static_cast<int>(raw_syscall(SYS_openat, AT_FDCWD, reinterpret_cast<long>(path), O_RDONLY | O_CLOEXEC));
  if (fd < 0) return -1;
  std::size_t len = 0;
  for (;;) {
    if (len + 1 >= cap) {
      raw_syscall(SYS_close, fd);
      return -1;
    }
    const long n = raw_syscall(SYS_read, fd, reinterpret_cast<long>(buf + len), static_cast<long>(cap - 1 - len));
    if (n < 0) {
      raw_syscall(SYS_close, fd);
      return -1;
    }
    if (n == 0) break;
    len += static_cast<std::size_t>(n);
  }
  raw_syscall(SYS_close, fd);
  buf[len] = '\0';
  return static_cast<long>(len);
}

std::uint64_t parse_number(const char*& p, int base) {
  std::uint64_t v = 0;
  for (;; ++p) {
    int d;
    if (*p >= '0' && *p <= '9') d = *p - '0';
    else if (base == 16 && *p >= 'a' && *p <= 'f') d = *p - 'a' + 10;
    else break;
    v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
  }
  return v;
}

bool starts_with(const char* p, const char* prefix) { return std::strncmp(p, prefix, std::strlen(prefix)) == 0; }

// Parses /proc/self/maps into out; returns the count, or -1 (unreadable, too many mappings).
int read_mappings(Vault& v, Mapping* out) {
  if (read_proc("/proc/self/maps", v.maps_text, kMapsText) < 0) return -1;
  int n = 0;
  for (const char* p = v.maps_text; *p;) {
    if (n == kMaxMappings) return -1;
    Mapping& m = out[n++];
    m.lo = parse_number(p, 16);
    ++p;  // '-'
    m.hi = parse_number(p, 16);
    ++p;
    m.perms = static_cast<std::uint8_t>((p[0] == 'r' ? kRead : 0) | (p[1] == 'w' ? kWrite : 0) |
                                        (p[2] == 'x' ? kExec : 0) | (p[3] == 'p' ? kPrivate : 0));
    p += 5;
    m.offset = parse_number(p, 16);
    ++p;
    while (*p && *p != ' ') ++p;  // device
    ++p;
    m.inode = parse_number(p, 10);
    while (*p == ' ') ++p;
    m.kind = Kind::ordinary;
    if (starts_with(p, "[stack]")) m.kind = Kind::stack;
    else if (starts_with(p, "[heap]")) m.kind = Kind::heap;
    else if (starts_with(p, "[v")) m.kind = Kind::special;  // [vvar], [vdso], [vsyscall]
    while (*p && *p != '\n') ++p;
    if (*p) ++p;
  }
  return n;
}

// Calls f(fd) for each open descriptor but the one reading the directory; false when unreadable.
template <class F>
bool for_each_fd(F&& f) {
  const int dir = static_cast<int>(
      raw_syscall(SYS_openat, AT_FDCWD, reinterpret_cast<long>("/proc/self/fd"), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir < 0) return false;
  alignas(8) char buf[4096];
  for (;;) {
    const long n = raw_syscall(SYS_getdents64, dir, reinterpret_cast<long>(buf), sizeof buf);
    if (n < 0) {
      raw_syscall(SYS_close, dir);
      return false;
    }
    if (n == 0) break;
    for (long at = 0; at < n;) {
      const auto* d = reinterpret_cast<const struct dirent64*>(buf + at);
      at += d->d_reclen;
      if (d->d_name[0] < '0' || d->d_name[0] > '9') continue;
      const char* p = d->d_name;
      const int fd = static_cast<int>(parse_number(p, 10));
      if (fd != dir) f(fd);
    }
  }
  raw_syscall(SYS_close, dir);
  return true;
}

int count_threads() {
  int n = 0;
  const int dir = static_cast<int>(
      raw_syscall(SYS_openat, AT_FDCWD, reinterpret_cast<long>("/proc/self/task"), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir < 0) return -1;
  alignas(8) char buf[4096];
  for (long got; (got = raw_syscall(SYS_getdents64, dir, reinterpret_cast<long>(buf), sizeof buf)) > 0;) {
    for (long at = 0; at < got;) {
      const auto* d = reinterpret_cast<const struct dirent64*>(buf + at);
      at += d->d_reclen;
      if (d->d_name[0] >= '0' && d->d_name[0] <= '9') ++n;
    }
  }
  raw_syscall(SYS_close, dir);
  return n;
}

bool overlaps(std::uintptr_t lo, std::uintptr_t hi, std::uintptr_t a, std::uintptr_t b) { return lo < b && a < hi; }

// The process's size in pages (the first field of /proc/self/statm), or 0.
std::uint64_t vm_pages() {
  char text[128];
  if (read_proc("/proc/self/statm", text, sizeof text) < 0) return 0;
  const char* p = text;
  return parse_number(p, 10);
}

int loaded_objects() {
  int n = 0;
  dl_iterate_phdr([](dl_phdr_info*, std::size_t, void* count) { return ++*static_cast<int*>(count), 0; }, &n);
  return n;
}

std::uintptr_t page_up(std::uintptr_t a) { return (a + kPage - 1) & ~(kPage - 1); }

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

// Removes [lo, hi) from the n pieces of list, in place, and updates n; emptied pieces are dropped
// and a piece split in two puts its upper part at the end. False when a split would pass cap:
// that upper part is then lost.
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

// Removes [lo, hi) from the ranges made since the moment; a range that no longer fits the record
// leaves the run untracked, so its end reads the maps.
void forget_created(Vault& v, std::uintptr_t lo, std::uintptr_t hi) {
  if (!subtract_range(v.created, v.ncreated, kMaxCreated, lo, hi)) v.untracked = true;
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

// --- the helper context: runs on the vault's own stack while the main stack is saved or written --

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

__attribute__((no_sanitize("address"))) void save_memory(Vault& v) {
  v.nzero = 0;
  for (int i = 0; i < v.nall; ++i) {
    Region& r = v.regions[i];
    copy_bytes(reinterpret_cast<void*>(v.store_lo + r.at), reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
    find_zero_spans(v, r);
  }
}

// Zeros the resident pages of [lo, hi) that are not zeros; the others read as zeros already.
// `resident` holds mincore's answer for `window` pages at a time. A page that was only read is
// resident too, as the kernel's shared page of zeros (AddressSanitizer's leak check reads every
// page of its allocator): writing it would give it a page of its own.
__attribute__((no_sanitize("address"))) void clear_resident(unsigned char* resident, std::size_t window,
                                                            std::uintptr_t lo, std::uintptr_t hi) {
  for (std::uintptr_t at = lo; at < hi;) {
    const std::uintptr_t len = hi - at < window * kPage ? hi - at : window * kPage;
    if (raw_syscall(SYS_mincore, static_cast<long>(at), static_cast<long>(len), reinterpret_cast<long>(resident)) != 0)
      zero_bytes(reinterpret_cast<void*>(at), len);  // not expected; correct, only slower
    else
      for (std::uintptr_t k = 0; k < len / kPage; ++k)
        if ((resident[k] & 1) && !page_is_zero(at + k * kPage))
          zero_bytes(reinterpret_cast<void*>(at + k * kPage), kPage);
    at += len;
  }
}
void clear_resident(Vault& v, std::uintptr_t lo, std::uintptr_t hi) {
  clear_resident(v.resident, kMincoreWindow, lo, hi);
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

// Whether any page of the machine is swapped out: a swapped-out page of ours is not resident,
// whatever it holds. (A page swapped out between this and the restore's mincore, microseconds
// later with every signal blocked, would be missed: a run's pages are the last ones the kernel
// takes.)
bool swap_in_use() {
  struct sysinfo info {};
  return raw_syscall(SYS_sysinfo, reinterpret_cast<long>(&info)) != 0 || info.totalswap != info.freeswap;
}

// Region r back from the store: its zero spans cleared where a run made them resident (or, with
// swap, copied like the rest), everything else copied.
void restore_region(Vault& v, const Region& r, bool copy_zero_spans) {
  const auto copy = [&](std::uintptr_t lo, std::uintptr_t hi) {
    copy_bytes(reinterpret_cast<void*>(lo), reinterpret_cast<const void*>(v.store_lo + r.at + (lo - r.lo)), hi - lo);
  };
  if (copy_zero_spans) return copy(r.lo, r.hi);
  std::uintptr_t at = r.lo;
  for (int z = r.zero_first; z < r.zero_end; ++z) {
    copy(at, v.zero[z].lo);
    clear_resident(v, v.zero[z].lo, v.zero[z].hi);
    at = v.zero[z].hi;
  }
  copy(at, r.hi);
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
  for (int i = 0; i < v.nall; ++i) restore_region(v, v.regions[i], copy_zero_spans);
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
  const int n = read_mappings(v, v.now);
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
    if (vm_pages() == expected) {
      for (int i = 0; i < v.ncreated; ++i) v.unmap[v.nunmap++] = v.created[i];
      for (int i = 0; i < v.nshelved; ++i)
        if (v.shelf[i].taken) v.unmap[v.nunmap++] = Piece{v.shelf[i].lo, v.shelf[i].hi};
      return true;
    }
  }
  return plan_from_maps(v) && spare_shelved(v);
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

ProcessSnapshot::Taken ProcessSnapshot::take(std::size_t limit) {
  if (g_vault || count_threads() != 1) return Taken::unavailable;
  Vault* v = map_vault();
  if (!v) return Taken::unavailable;
  v->nmappings = read_mappings(*v, v->mappings);
  if (v->nmappings < 0) {
    unmap_vault(v);
    return Taken::unavailable;
  }
  // What to save: every private writable mapping but the vault, the main stack whole.
  std::uintptr_t here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  v->shadow = shadow_layout();
  v->stack_saved_lo = v->stack_lo = 0;
  std::size_t total = 0;
  v->nregions = 0;
  for (int i = 0; i < v->nmappings; ++i) {
    const Mapping& m = v->mappings[i];
    if (m.kind == Kind::special || (m.perms & (kWrite | kPrivate)) != (kWrite | kPrivate)) continue;
    if (overlaps(m.lo, m.hi, v->lo, v->hi)) continue;  // the vault itself (its guards keep it apart)
    if (v->shadow.holds(m.lo, m.hi)) continue;         // saved in part below, as the shadow of the rest
    if (left_unsaved(m)) continue;
    Region& r = v->regions[v->nregions++];
    r = Region{m.lo, m.hi, total, m.perms, false, m.inode == 0, 0, 0};
    if (m.kind == Kind::stack) {
      if (here < m.lo || here >= m.hi) {
        unmap_vault(v);
        return Taken::unavailable;
      }
      v->stack_saved_lo = v->stack_lo = m.lo;
      rlimit stack_limit{};
      const std::size_t most = std::size_t{1} << 30;
      v->stack_reach =
          getrlimit(RLIMIT_STACK, &stack_limit) == 0 && stack_limit.rlim_cur < most ? stack_limit.rlim_cur : most;
      v->stack_reach = v->stack_reach > m.hi - m.lo ? (v->stack_reach - (m.hi - m.lo)) & ~(kPage - 1) : 0;
      v->stack_reach = v->stack_reach < m.lo ? v->stack_reach : 0;
    }
    total += (r.hi - r.lo + 63) & ~std::size_t{63};
  }
  total = add_shadow_regions(*v, total);
  if (total > limit) {
    unmap_vault(v);
    return Taken::unavailable;
  }
  const std::size_t store_bytes = (total + kPage - 1) / kPage * kPage + 2 * kPage;
  char* store = map_apart(store_bytes);
  if (!store) {
    unmap_vault(v);
    return Taken::unavailable;
  }
  v->store_lo = reinterpret_cast<std::uintptr_t>(store) + kPage;
  v->store_hi = reinterpret_cast<std::uintptr_t>(store) + store_bytes;
  v->saved = total;
  v->brk = static_cast<std::uintptr_t>(raw_syscall(SYS_brk, 0));
  sigprocmask(SIG_BLOCK, nullptr, &v->mask);
  // The C library's own function, not the interposed one, whose first call would allocate (dlsym)
  // here instead of in the run as in a fresh child, and so move the run's heap.
  for (int s = 1; s <= 64; ++s) __sigaction(s, nullptr, &v->dispositions[s]);
  v->touched_signals = 0;
  raw_syscall(SYS_sigaltstack, 0, reinterpret_cast<long>(&v->signal_stack));
  v->signal_stack_touched = false;
  v->nfds = 0;
  bool fds_ok = for_each_fd([&](int fd) {
    if (v->nfds == kMaxFds) return;
    struct stat st {};
    if (fstat(fd, &st) != 0) return;
    v->fds[v->nfds++] = SavedFd{fd, S_ISREG(st.st_mode) ? lseek(fd, 0, SEEK_CUR) : -1, st.st_dev, st.st_ino};
  });
  if (!fds_ok || v->nfds == kMaxFds) {
    munmap(store, store_bytes);
    unmap_vault(v);
    return Taken::unavailable;
  }
  std::sort(v->fds, v->fds + v->nfds, [](const SavedFd& a, const SavedFd& b) { return a.fd < b.fd; });
  // Asks whether the kernel has close_range (an empty range: nothing is closed).
  v->close_gaps = raw_syscall(SYS_close_range, ~0U, ~0U, 0) == 0;
  // The ranges a run's end keeps: every mapping of the moment, the vault and the store.
  v->nkeep = 0;
  Piece own[2] = {Piece{v->lo, v->hi}, Piece{v->store_lo - kPage, v->store_hi}};
  if (own[1].lo < own[0].lo) std::swap(own[0], own[1]);
  for (int i = 0, o = 0; i < v->nmappings || o < 2;) {
    Piece next;
    if (o < 2 && (i == v->nmappings || own[o].lo < v->mappings[i].lo)) next = own[o++];
    else next = Piece{v->mappings[i].lo, v->mappings[i].hi}, ++i;
    if (v->nkeep > 0 && v->keep[v->nkeep - 1].hi >= next.lo) {
      if (next.hi > v->keep[v->nkeep - 1].hi) v->keep[v->nkeep - 1].hi = next.hi;
    } else {
      v->keep[v->nkeep++] = next;
    }
  }
  v->heap_lo = 0;
  for (int i = 0; i < v->nmappings; ++i)
    if (v->mappings[i].kind == Kind::heap) v->heap_lo = v->mappings[i].lo;
  v->loaded_objects = loaded_objects();
  v->ncreated = 0;
  v->nmapped = 0;
  v->nshelved = 0;
  v->untracked = false;
  v->vm_pages = vm_pages();  // the vault and the store included
  g_vault = v;
  g_threads_started = 0;
  // Suspend here on the main stack while the helper saves it; restore() resumes the same moment.
  const fctx::fcontext_t helper = fctx::make_fcontext(v->helper_stack + kHelperStack, kHelperStack, &helper_entry);
  const fctx::transfer_t back = fctx::jump_fcontext(helper, reinterpret_cast<void*>(kDoSave));
  return reinterpret_cast<std::uintptr_t>(back.data) == kRestored ? Taken::restored : Taken::saved;
}

bool ProcessSnapshot::prepare_restore() {
  Vault* vp = g_vault;
  if (!vp || g_threads_started > 0) return false;
  Vault& v = *vp;
  v.nunmap = v.nreserves = v.nshadow_clears = 0;
  if (!plan_unmapping(v) || !plan_shadow_clears(v)) return false;
  // Shelved mappings the run took and did not give back are in the plan's unmapping.
  int kept = 0;
  for (int i = 0; i < v.nshelved; ++i)
    if (!v.shelf[i].taken) v.shelf[kept++] = v.shelf[i];
  v.nshelved = kept;
  // Descriptors: those opened since are closed; those of the moment must still be the same files.
  v.nclose = 0;
  if (!v.close_gaps) {
    int seen = 0;
    bool room = true;
    const bool listed = for_each_fd([&](int fd) {
      for (int i = 0; i < v.nfds; ++i)
        if (v.fds[i].fd == fd) {
          ++seen;
          return;
        }
      if (v.nclose < kMaxFds) v.close_fds[v.nclose++] = fd;
      else room = false;
    });
    if (!listed || !room || seen != v.nfds) return false;
  }
  for (int i = 0; i < v.nfds; ++i) {
    struct stat st {};
    if (fstat(v.fds[i].fd, &st) != 0) return false;  // closed by the run
    // stdout and stderr are set up by each run (runtime/isolation/fork_server.cpp); stdin is the moment's.
    if (v.fds[i].fd == 1 || v.fds[i].fd == 2) continue;
    if (st.st_dev != v.fds[i].dev || st.st_ino != v.fds[i].ino) return false;
  }
  return true;
}

void ProcessSnapshot::restore() {
  run_helper(kDoRestore);
  __builtin_trap();
}

std::size_t ProcessSnapshot::saved_bytes() { return g_vault ? g_vault->saved : 0; }

bool ProcessSnapshot::leave_unsaved(void* addr, std::size_t bytes) {
  if (g_vault || g_nunsaved == kMaxUnsaved) return false;
  const auto lo = reinterpret_cast<std::uintptr_t>(addr);
  g_unsaved[g_nunsaved++] = Piece{lo, page_up(lo + bytes)};
  return true;
}

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

void ProcessSnapshot::clear_as_fresh(void* addr, std::size_t bytes) {
  const auto lo = reinterpret_cast<std::uintptr_t>(addr);
  if (swap_in_use() && raw_syscall(SYS_madvise, static_cast<long>(lo), static_cast<long>(bytes), MADV_DONTNEED) == 0)
    return;
  if (g_vault) {
    clear_resident(*g_vault, lo, lo + bytes);  // the vault has room for mincore's answer
  } else {
    unsigned char resident[256];
    clear_resident(resident, sizeof resident, lo, lo + bytes);
  }
}

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
