#include "runtime/isolation/written_pages.hpp"

#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "runtime/base/runtime_file.hpp"
#include "runtime/isolation/raw_syscall.hpp"

namespace bspcheck::rt::snapshot {

namespace {

// The kernel's interface (Linux 6.7), spelled out: Debian bookworm's headers predate it.
constexpr std::uint64_t kFeatureWpUnpopulated = 1u << 13;  // UFFD_FEATURE_WP_UNPOPULATED
constexpr std::uint64_t kFeatureWpAsync = 1u << 15;        // UFFD_FEATURE_WP_ASYNC
constexpr int kUserModeOnly = 1;                           // UFFD_USER_MODE_ONLY
constexpr std::uint64_t kPageIsWpAllowed = 1u << 0;        // PAGE_IS_WPALLOWED: a registered range
constexpr std::uint64_t kPageIsWritten = 1u << 1;          // PAGE_IS_WRITTEN
constexpr std::uint64_t kScanWpMatching = 1u << 0;         // PM_SCAN_WP_MATCHING

struct PmScanArg {  // struct pm_scan_arg
  std::uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
  std::uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
static_assert(sizeof(WrittenRun) == 24, "struct page_region");
constexpr unsigned long kPagemapScan = _IOWR('f', 16, PmScanArg);  // PAGEMAP_SCAN

// One PAGEMAP_SCAN of the registered pages of [from, to) (the others are skipped a mapping at a
// time, without reading their page tables): listed into v.written when `list`, as runs of pages
// alike written or not; the written ones protected when `protect`.
long scan(Vault& v, std::uintptr_t from, std::uintptr_t to, bool list, bool protect, std::uintptr_t& next) {
  PmScanArg a{};
  a.size = sizeof a;
  a.start = from;
  a.end = to;
  a.flags = protect ? kScanWpMatching : 0;
  a.category_mask = protect ? kPageIsWritten | kPageIsWpAllowed : kPageIsWpAllowed;
  a.return_mask = kPageIsWritten;
  a.vec = list ? reinterpret_cast<std::uint64_t>(v.written) : 0;
  a.vec_len = list ? kMaxWrittenRuns : 0;
  const long n = raw_syscall(SYS_ioctl, v.pagemap_fd, static_cast<long>(kPagemapScan), reinterpret_cast<long>(&a));
  next = a.walk_end;
  return n;
}

}  // namespace

void open_write_tracking(Vault& v) {
  v.track_fd = v.pagemap_fd = -1;
  if (v.saved < kTrackWritesFrom) return;
  const long uffd = raw_syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | kUserModeOnly);
  if (uffd < 0) return;
  uffdio_api api{};
  api.api = UFFD_API;
  api.features = kFeatureWpAsync | kFeatureWpUnpopulated;
  const long pagemap =
      raw_syscall(SYS_openat, AT_FDCWD, reinterpret_cast<long>("/proc/self/pagemap"), O_RDONLY | O_CLOEXEC);
  if (raw_syscall(SYS_ioctl, uffd, static_cast<long>(UFFDIO_API), reinterpret_cast<long>(&api)) != 0 || pagemap < 0) {
    raw_syscall(SYS_close, uffd);
    if (pagemap >= 0) raw_syscall(SYS_close, pagemap);
    return;
  }
  v.track_fd = out_of_the_way(static_cast<int>(uffd));
  v.pagemap_fd = out_of_the_way(static_cast<int>(pagemap));
}

void close_write_tracking(Vault& v) {
  if (v.track_fd >= 0) close_runtime_fd(v.track_fd);
  if (v.pagemap_fd >= 0) close_runtime_fd(v.pagemap_fd);
  v.track_fd = v.pagemap_fd = -1;
}

bool track_writes(Vault& v, std::uintptr_t lo, std::uintptr_t hi) {
  if (v.track_fd < 0) return false;
  uffdio_register r{};
  r.range.start = lo;
  r.range.len = hi - lo;
  r.mode = UFFDIO_REGISTER_MODE_WP;
  return raw_syscall(SYS_ioctl, v.track_fd, static_cast<long>(UFFDIO_REGISTER), reinterpret_cast<long>(&r)) == 0;
}

void plan_track_spans(Vault& v) {
  v.ntrack_spans = 0;
  if (v.nall == 0) return;
  const std::uintptr_t lo = v.regions[v.by_address[0]].lo, hi = v.regions[v.by_address[v.nall - 1]].hi;
  Piece own[2] = {Piece{v.lo, v.hi}, Piece{v.store_lo - kPage, v.store_hi}};
  if (own[1].lo < own[0].lo) {
    const Piece t = own[0];
    own[0] = own[1];
    own[1] = t;
  }
  std::uintptr_t at = lo;
  for (const Piece& o : own) {
    if (o.hi <= at || o.lo >= hi) continue;
    if (o.lo > at) v.track_spans[v.ntrack_spans++] = Piece{at, o.lo};
    at = o.hi;
  }
  if (at < hi) v.track_spans[v.ntrack_spans++] = Piece{at, hi};
}

bool protect_pages(Vault& v, std::uintptr_t lo, std::uintptr_t hi) {
  std::uintptr_t next = 0;
  return scan(v, lo, hi, false, true, next) >= 0;
}

bool protect_saved_pages(Vault& v) {
  for (int i = 0; i < v.ntrack_spans; ++i)
    if (!protect_pages(v, v.track_spans[i].lo, v.track_spans[i].hi)) return false;
  return true;
}

long list_written(Vault& v, std::uintptr_t from, std::uintptr_t to, std::uintptr_t& next) {
  return scan(v, from, to, true, false, next);
}

bool written_run(const WrittenRun& run) { return (run.categories & kPageIsWritten) != 0; }

}  // namespace bspcheck::rt::snapshot
