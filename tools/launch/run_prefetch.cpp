#include "tools/launch/run_prefetch.hpp"

namespace bspcheck::cli {

RunPrefetch::RunPrefetch(std::size_t workers, std::uint64_t first, std::uint64_t count, Plan plan, Runner run,
                         std::size_t window)
    : count_(count),
      plan_(std::move(plan)),
      run_(std::move(run)),
      window_(window < 1 ? 1 : window),
      next_(first),
      taken_(first) {
  for (std::size_t w = 0; w < workers; ++w) threads_.emplace_back([this, w] { work(w); });
}

RunPrefetch::~RunPrefetch() {
  stop();
  for (std::thread& t : threads_) t.join();
}

void RunPrefetch::stop() {
  const std::lock_guard<std::mutex> lock(m_);
  stopping_ = true;
  changed_.notify_all();
}

void RunPrefetch::work(std::size_t worker) {
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || next_ >= count_ || next_ < taken_ + window_; });
    if (stopping_ || next_ >= count_) return;
    const std::uint64_t i = next_++;
    const auto [p, seed] = plan_(i);
    lock.unlock();
    RunOutcome r = run_(worker, p, seed);
    lock.lock();
    done_.emplace(i, std::move(r));
    changed_.notify_all();
  }
}

std::optional<RunOutcome> RunPrefetch::take(int p, std::uint64_t seed) {
  std::unique_lock<std::mutex> lock(m_);
  if (taken_ >= count_ || plan_(taken_) != std::make_pair(p, seed)) return std::nullopt;
  const std::uint64_t i = taken_;
  // A run not started yet when the workers stopped is not coming: the loop runs it itself.
  changed_.wait(lock, [&] { return done_.count(i) || (stopping_ && next_ <= i); });
  auto it = done_.find(i);
  if (it == done_.end()) return std::nullopt;
  RunOutcome r = std::move(it->second);
  done_.erase(it);
  ++taken_;
  changed_.notify_all();  // the window moved
  return r;
}

}  // namespace bspcheck::cli
