// pod_vector.hpp: a growable array of trivially copyable records that grows with realloc. A
// superstep's write list reaches a million 64-byte records; std::vector grows by allocating a new
// block, copying every record into it and freeing the old one (a quarter of a put-heavy run),
// where realloc of a large block remaps its pages without copying or touching them again.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>

namespace bspcheck::rt {

template <typename T>
class PodVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "PodVector moves its records with realloc");

 public:
  PodVector() = default;
  PodVector(const PodVector&) = delete;
  PodVector& operator=(const PodVector&) = delete;
  ~PodVector() { std::free(data_); }

  void push_back(const T& x) {
    if (size_ == cap_) grow();
    data_[size_++] = x;
  }
  void clear() { size_ = 0; }  // keeps the memory for the next superstep
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

 private:
  void grow() {
    const std::size_t cap = cap_ ? 2 * cap_ : 64;
    auto* d = static_cast<T*>(std::realloc(static_cast<void*>(data_), cap * sizeof(T)));
    if (!d) throw std::bad_alloc();
    data_ = d;
    cap_ = cap;
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t cap_ = 0;
};

}  // namespace bspcheck::rt
