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
  outcome_ready_.notify_all();
  window_moved_.notify_all();
}

void RunPrefetch::work(std::size_t worker) {
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    const auto may_start = [&] { return stopping_ || next_ >= count_ || next_ < taken_ + window_; };
    if (!may_start()) {
      ++workers_waiting_;
      window_moved_.wait(lock, may_start);
      --workers_waiting_;
    }
    if (stopping_ || next_ >= count_) return;
    const std::uint64_t i = next_++;
    const auto [p, seed] = plan_(i);
    lock.unlock();
    RunOutcome r = run_(worker, p, seed);
    lock.lock();
    done_.emplace(i, std::move(r));
    if (loop_waits_ && i == taken_) {  // the loop waits for taken_ only
      lock.unlock();                   // told outside the lock, so that it does not wake only to wait for it
      outcome_ready_.notify_one();
      lock.lock();
    }
  }
}

std::optional<RunOutcome> RunPrefetch::take(int p, std::uint64_t seed) {
  std::unique_lock<std::mutex> lock(m_);
  if (taken_ >= count_ || plan_(taken_) != std::make_pair(p, seed)) return std::nullopt;
  const std::uint64_t i = taken_;
  // A run not started yet when the workers stopped is not coming: the loop runs it itself.
  const auto ready = [&] { return done_.count(i) || (stopping_ && next_ <= i); };
  if (!ready()) {
    loop_waits_ = true;
    outcome_ready_.wait(lock, ready);
    loop_waits_ = false;
  }
  auto it = done_.find(i);
  if (it == done_.end()) return std::nullopt;
  RunOutcome r = std::move(it->second);
  done_.erase(it);
  ++taken_;
  const bool start_one = workers_waiting_ > 0;  // the window moved by one: one run may start
  lock.unlock();
  if (start_one) window_moved_.notify_one();
  return r;
}

}  // namespace bspcheck::cli
