#include "mpi/transport/registered_window.hpp"

#include <algorithm>
#include <iterator>

namespace bspcheck::mpi {

namespace {

constexpr std::uintptr_t kPage = AttachedRuns::kPage;
std::uintptr_t page_below(std::uintptr_t a) { return a & ~(kPage - 1); }
std::uintptr_t page_above(std::uintptr_t a) { return page_below(a + kPage - 1); }

}  // namespace

std::map<std::uintptr_t, AttachedRuns::Run>::iterator AttachedRuns::first_touching(std::uintptr_t lo) {
  auto it = runs_.upper_bound(lo);
  if (it != runs_.begin() && std::prev(it)->second.end > lo) --it;
  return it;
}

std::vector<AttachedRuns::Span> AttachedRuns::cover(std::uintptr_t addr, std::uint64_t size) {
  std::vector<Span> made;
  if (addr == 0 || size == 0) return made;
  const std::uintptr_t lo = page_below(addr), hi = page_above(addr + size);
  auto it = first_touching(lo);
  for (std::uintptr_t at = lo; at < hi;) {
    if (it != runs_.end() && it->first <= at) {  // a run holds the pages from `at` on
      ++it->second.holders;
      at = it->second.end;
      ++it;
      continue;
    }
    const std::uintptr_t gap_end = it != runs_.end() ? std::min(hi, it->first) : hi;
    runs_.emplace_hint(it, at, Run{gap_end, 1});
    made.push_back({at, gap_end});
    at = gap_end;
  }
  return made;
}

std::vector<AttachedRuns::Span> AttachedRuns::uncover(std::uintptr_t addr, std::uint64_t size) {
  std::vector<Span> gone;
  if (addr == 0 || size == 0) return gone;
  const std::uintptr_t lo = page_below(addr), hi = page_above(addr + size);
  for (auto it = first_touching(lo); it != runs_.end() && it->first < hi;) {
    if (--it->second.holders > 0) {
      ++it;
      continue;
    }
    gone.push_back({it->first, it->second.end});
    it = runs_.erase(it);
  }
  return gone;
}

std::vector<AttachedRuns::Span> AttachedRuns::runs() const {
  std::vector<Span> all;
  for (const auto& [begin, run] : runs_) all.push_back({begin, run.end});
  return all;
}

RegisteredWindow::RegisteredWindow(MPI_Comm comm) {
  MPI_Errhandler fatal;
  MPI_Comm_get_errhandler(comm, &fatal);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  int made = MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &win_) == MPI_SUCCESS, everywhere = 0;
  MPI_Comm_set_errhandler(comm, fatal);
  MPI_Errhandler_free(&fatal);
  MPI_Allreduce(&made, &everywhere, 1, MPI_INT, MPI_MIN, comm);
  if (!everywhere) win_ = MPI_WIN_NULL;  // (one made where another was not cannot be freed together)
}

void RegisteredWindow::close() {
  if (win_ == MPI_WIN_NULL) return;
  for (const AttachedRuns::Span& run : runs_.runs()) MPI_Win_detach(win_, reinterpret_cast<void*>(run.begin));
  MPI_Win_free(&win_);
}

void RegisteredWindow::cover(const void* addr, std::int64_t size) {
  if (win_ == MPI_WIN_NULL || size <= 0) return;
  for (const AttachedRuns::Span& run : runs_.cover(reinterpret_cast<std::uintptr_t>(addr), size))
    MPI_Win_attach(win_, reinterpret_cast<void*>(run.begin), static_cast<MPI_Aint>(run.end - run.begin));
}

void RegisteredWindow::uncover(const void* addr, std::int64_t size) {
  if (win_ == MPI_WIN_NULL || size <= 0) return;
  for (const AttachedRuns::Span& run : runs_.uncover(reinterpret_cast<std::uintptr_t>(addr), size))
    MPI_Win_detach(win_, reinterpret_cast<void*>(run.begin));
}

void RegisteredWindow::read(int target, std::uint64_t addr, void* out, std::size_t n) {
  auto* to = static_cast<unsigned char*>(out);
  MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win_);
  for (std::uint64_t at = addr, end = addr + n; at < end;) {
    const std::uint64_t piece = std::min<std::uint64_t>(end, page_below(static_cast<std::uintptr_t>(at)) + kPage) - at;
    MPI_Get(to + (at - addr), static_cast<int>(piece), MPI_BYTE, target, static_cast<MPI_Aint>(at),
            static_cast<int>(piece), MPI_BYTE, win_);
    at += piece;
  }
  MPI_Win_unlock(target, win_);
}

}  // namespace bspcheck::mpi
