// registered.hpp: a thin C++ wrapper around registration and puts, as C++ programs write them.
// Every BSPlib call below is made on a line of this header, whichever program line asked for it.
#pragma once

#include <bsp.h>

#include <cstddef>

// Registers `count` elements at `area` (popped by the caller with bsp_pop_reg).
template <typename T>
void register_area(T* area, std::size_t count) {
  bsp_push_reg(area, count * sizeof(T));
}

template <typename T>
class Registered {
 public:
  Registered(T* area, std::size_t count) : area_(area) { bsp_push_reg(area_, count * sizeof(T)); }
  ~Registered() { bsp_pop_reg(area_); }
  void put_to(int pid, const T* src, std::size_t offset, std::size_t count) {
    bsp_put(pid, src, area_, offset * sizeof(T), count * sizeof(T));
  }

 private:
  T* area_;
};
