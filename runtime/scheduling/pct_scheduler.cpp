#include "runtime/scheduling/pct_scheduler.hpp"

#include <algorithm>

namespace bspcheck::rt {

namespace {
// Streams of their own, apart from the kinds' streams, so that PCT's draws never correlate with
// what the uniform strategies draw for the same seed.
constexpr std::uint64_t kPctSalt = 0x5043545343484544ULL;  // "PCTSCHED"
}  // namespace

PctScheduler::PctScheduler(std::uint64_t seed, int depth, std::uint64_t steps_estimate)
    : priorities_stream_(stream_for(seed ^ kPctSalt, ChoiceKind::next_process)),
      deviations_(stream_for(seed ^ kPctSalt, ChoiceKind::queue_order)),
      time_(stream_for(seed, ChoiceKind::time)) {
  // depth - 1 distinct points, uniform over 1..k: rejection is cheap because depth is small
  // against k; when k is smaller than depth - 1, every step is a change point.
  Rng points(stream_for(seed ^ kPctSalt, ChoiceKind::write_order));
  const std::uint64_t k = std::max<std::uint64_t>(steps_estimate, 1);
  const std::uint64_t wanted = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::max(depth - 1, 0)), k);
  while (change_points_.size() < wanted) {
    const std::uint64_t point = 1 + ((points.next() >> 11) % k);
    if (std::find(change_points_.begin(), change_points_.end(), point) == change_points_.end())
      change_points_.push_back(point);
  }
  std::sort(change_points_.begin(), change_points_.end());
}

bool PctScheduler::step_is_change_point() {
  ++steps_;
  if (next_change_ < change_points_.size() && change_points_[next_change_] == steps_) {
    ++next_change_;
    return true;
  }
  return false;
}

void PctScheduler::draw_priorities(int nprocs) {
  // The scheduler learns p from the first runnable set: a uniform permutation of 0..p-1.
  priority_.resize(static_cast<std::size_t>(nprocs));
  for (int pid = 0; pid < nprocs; ++pid) priority_[static_cast<std::size_t>(pid)] = pid;
  for (std::size_t i = priority_.size(); i > 1; --i)
    std::swap(priority_[i - 1], priority_[priorities_stream_.below(static_cast<std::uint32_t>(i))]);
}

int PctScheduler::next_process(const RunnableSet& runnable, int) {
  if (priority_.empty()) draw_priorities(runnable.nprocs());
  if (runnable.list.size() < 2) return runnable.list.front();
  auto highest = [&] {
    int best = runnable.list.front();
    for (int pid : runnable.list)
      if (priority_[static_cast<std::size_t>(pid)] > priority_[static_cast<std::size_t>(best)]) best = pid;
    return best;
  };
  if (step_is_change_point()) priority_[static_cast<std::size_t>(highest())] = next_demoted_--;
  return highest();
}

std::uint32_t PctScheduler::choose(ChoiceKind kind, std::uint32_t n) {
  if (kind == ChoiceKind::time) return time_.below(n);
  if (n < 2) return 0;
  if (step_is_change_point()) return deviations_.below(n - 1);  // uniform over 0..n-2
  return n - 1;
}

}  // namespace bspcheck::rt
