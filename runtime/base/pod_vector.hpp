// pod_vector.hpp: a growable array of trivially copyable records that grows with realloc. A
// superstep's write list reaches a million 64-byte records; std::vector grows by allocating a new
// block, copying every record into it and freeing the old one (a quarter of a put-heavy run),
// where realloc of a large block remaps its pages without copying or touching them again. Records
// added by resize_uninitialized are not cleared (std::vector would write every byte it adds):
// ByteArena (runtime/base/byte_arena.hpp) is a PodVector of bytes.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

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
    if (size_ == cap_) grow(size_ + 1);
    data_[size_++] = x;
  }
  // Makes the size n; records added are left as they are (the caller writes them).
  void resize_uninitialized(std::size_t n) {
    if (n > cap_) grow(n);
    size_ = n;
  }
  void clear() { size_ = 0; }  // keeps the memory for the next superstep
  void swap(PodVector& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(cap_, o.cap_);
  }
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
  // Doubles the capacity (starting from 4 KiB) until it holds `need` records.
  void grow(std::size_t need) {
    std::size_t cap = cap_ ? cap_ : (4096 / sizeof(T) > 0 ? 4096 / sizeof(T) : 1);
    while (cap < need) cap *= 2;
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
