// byte_arena.hpp: an append-only byte buffer that grows without zero-filling (std::vector would
// clear every byte it adds). Holds put payloads copied at the call and BSMP messages.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>

namespace bspcheck::rt {

class ByteArena {
 public:
  ByteArena() = default;
  ByteArena(const ByteArena&) = delete;
  ByteArena& operator=(const ByteArena&) = delete;
  ~ByteArena() { std::free(data_); }

  // Reserves n bytes at an offset aligned to `align` (a power of two) and returns the offset.
  std::size_t reserve(std::size_t n, std::size_t align = 1) {
    std::size_t off = (size_ + align - 1) & ~(align - 1);
    if (off + n > cap_) grow(off + n);
    size_ = off + n;
    return off;
  }
  std::size_t append(const void* src, std::size_t n) {
    std::size_t off = reserve(n);
    if (n) std::memcpy(data_ + off, src, n);
    return off;
  }
  std::byte* at(std::size_t off) { return data_ + off; }
  const std::byte* at(std::size_t off) const { return data_ + off; }
  std::size_t size() const { return size_; }
  void clear() { size_ = 0; }
  void swap(ByteArena& o) {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(cap_, o.cap_);
  }

 private:
  void grow(std::size_t need) {
    std::size_t cap = cap_ ? cap_ : 4096;
    while (cap < need) cap *= 2;
    auto* d = static_cast<std::byte*>(std::realloc(data_, cap));
    if (!d) throw std::bad_alloc();
    data_ = d;
    cap_ = cap;
  }
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t cap_ = 0;
};

}  // namespace bspcheck::rt
