#include "checker/writes_by_address.hpp"

#include <algorithm>
#include <cstring>

namespace bspcheck::checker {

namespace {

bool before(const Interval& a, const Interval& b) {
  if (a.lo != b.lo) return a.lo < b.lo;
  return a.nbytes != b.nbytes ? a.nbytes < b.nbytes : a.tagged < b.tagged;
}

// Grows v to at least n records without clearing the ones it had (each is written before it is read).
void reserve_records(std::vector<Interval>& v, std::size_t n) {
  if (v.size() < n) v.resize(n);
}

}  // namespace

std::span<const Interval> WritesByAddress::order(const WriteSet& writes, std::span<const HpRecord> hp) {
  const std::size_t n = place(writes, hp);
  if (n < 2) return {};  // nothing can overlap
  if (counted_) sort_by_counting(n);
  else sort_by_runs(n);
  return {iv_.data(), n};
}

// Grouped by writer first (stable: call order within each), when there are not far more processes
// than writes: a process's writes usually go to ascending addresses, so the groups are a few
// ascending runs for sort_by_runs, where the call order interleaves the processes. Two passes
// over the records: one counts each writer's writes, one puts each in its place.
// Writes packed into a span of less than 2 bytes per write (many writes to one area: a superstep
// of overlapping puts) are placed in call order instead, and counted per first address as they
// are placed, for sort_by_counting: two more passes over them (one moves each to its place, one
// checks the ties) where merging the runs took one per halving of their number (ten for a thousand).
// The per-writer table never gets longer than 4 entries per record, which grouping would refuse
// anyway: two writes by processes near 10^6 had cost a 4 MB table at every barrier.
std::size_t WritesByAddress::place(const WriteSet& writes, std::span<const HpRecord> hp) {
  next_.clear();
  std::size_t count = 0;
  const std::size_t table_limit = 4 * (writes.size() + hp.size());
  bool sparse = false;  // a writer beyond table_limit: not grouped
  std::uintptr_t lo_min = UINTPTR_MAX, lo_max = 0;
  const auto tally = [&](int writer, const void* dst) {
    const auto k = static_cast<std::size_t>(writer);
    const auto lo = reinterpret_cast<std::uintptr_t>(dst);
    lo_min = std::min(lo_min, lo);
    lo_max = std::max(lo_max, lo);
    ++count;
    if (k >= table_limit) sparse = true;
    if (sparse) return;
    if (k >= next_.size()) next_.resize(k + 1, 0);
    ++next_[k];
  };
  for (const auto group : {writes.gets, writes.puts})
    for (const BufferedWrite& w : group)
      if (w.nbytes) tally(w.writer, w.dst);
  for (const HpRecord& h : hp)
    if (h.nbytes) tally(h.caller, h.dst);
  if (count < 2) return count;
  counted_ = lo_max - lo_min < 2 * count;
  lo_min_ = lo_min;
  if (counted_) at_.assign(lo_max - lo_min + 1, 0);
  const bool by_writer = !counted_ && !sparse && next_.size() > 1 && next_.size() <= 4 * count;
  if (!by_writer) next_.clear();
  for (std::uint32_t w = 0, first = 0; w < next_.size(); ++w) {
    const std::uint32_t n = next_[w];
    next_[w] = first;
    first += n;
  }
  reserve_records(iv_, count);
  std::size_t in_order = 0;  // the next place when not grouped
  const auto place = [&](int writer, const void* dst) -> Interval& {
    if (counted_) ++at_[reinterpret_cast<std::uintptr_t>(dst) - lo_min];
    return iv_[by_writer ? next_[static_cast<std::size_t>(writer)]++ : in_order++];
  };
  std::uint32_t index = 0;
  for (const auto group : {writes.gets, writes.puts})
    for (const BufferedWrite& w : group) {
      if (w.nbytes) {
        std::uint64_t small = 0;
        std::memcpy(&small, writes.bytes(w), std::min(w.nbytes, kSmall));
        place(w.writer, w.dst) = {reinterpret_cast<std::uintptr_t>(w.dst), w.nbytes, index, small};
      }
      ++index;
    }
  for (std::size_t i = 0; i < hp.size(); ++i)
    if (hp[i].nbytes)
      place(hp[i].caller, hp[i].dst) = {reinterpret_cast<std::uintptr_t>(hp[i].dst), hp[i].nbytes,
                                        static_cast<std::uint32_t>(i) | kHpBit, 0};
  return count;
}

// A counting sort by first address (stable: the writes at one address stay in call order), then
// the writes at one first address put in order of size where they are not.
void WritesByAddress::sort_by_counting(std::size_t n) {
  std::uint32_t first = 0;
  for (std::uint32_t& c : at_) {
    const std::uint32_t k = c;
    c = first;
    first += k;
  }
  reserve_records(spare_, n);
  for (std::size_t i = 0; i < n; ++i) spare_[at_[iv_[i].lo - lo_min_]++] = iv_[i];
  iv_.swap(spare_);
  const auto v = iv_.begin();
  for (std::size_t i = 1; i < n; ++i) {
    if (!before(iv_[i], iv_[i - 1])) continue;
    // Out of order: a run of writes at one first address, from i - 1 on (the ones before it are in order).
    std::size_t a = i - 1, b = i + 1;
    while (a > 0 && iv_[a - 1].lo == iv_[i].lo) --a;
    while (b < n && iv_[b].lo == iv_[i].lo) ++b;
    std::sort(v + static_cast<std::ptrdiff_t>(a), v + static_cast<std::ptrdiff_t>(b), before);
    i = b - 1;
  }
}

// A superstep's writes come writer by writer in call order, and most programs write ascending
// addresses, so they are a few runs (n log runs to merge); sorting them afresh had been a fifth of
// a put-heavy run. The runs are merged two by two from one buffer into the other (std::merge):
// std::inplace_merge had taken a temporary buffer, fresh pages, for every merge.
void WritesByAddress::sort_by_runs(std::size_t n) {
  const auto v = iv_.begin();
  const std::size_t max_runs = 1 + n / 16;  // beyond, sorting is no slower
  bounds_.assign(1, 0);
  for (std::size_t i = 1; i < n; ++i) {
    if (!before(iv_[i], iv_[i - 1])) continue;  // the run goes on
    if (bounds_.size() > max_runs) {
      std::sort(v, v + static_cast<std::ptrdiff_t>(n), before);
      return;
    }
    bounds_.push_back(i);
  }
  bounds_.push_back(n);
  if (bounds_.size() > 2) reserve_records(spare_, n);
  while (bounds_.size() > 2) {  // merge runs two by two into spare_, then swap the buffers
    merged_.assign(1, 0);
    const auto at = [](std::vector<Interval>& b, std::size_t i) { return b.begin() + static_cast<std::ptrdiff_t>(i); };
    std::size_t k = 0;
    for (; k + 2 < bounds_.size(); k += 2) {
      std::merge(at(iv_, bounds_[k]), at(iv_, bounds_[k + 1]), at(iv_, bounds_[k + 1]), at(iv_, bounds_[k + 2]),
                 at(spare_, bounds_[k]), before);
      merged_.push_back(bounds_[k + 2]);
    }
    if (k + 1 < bounds_.size()) {  // an odd run, copied over and merged next time
      std::copy(at(iv_, bounds_[k]), at(iv_, bounds_[k + 1]), at(spare_, bounds_[k]));
      merged_.push_back(bounds_[k + 1]);
    }
    iv_.swap(spare_);
    bounds_.swap(merged_);
  }
}

}  // namespace bspcheck::checker
