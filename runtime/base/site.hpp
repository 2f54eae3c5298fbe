// site.hpp: where in the user's program a BSPlib call was made.
#pragma once

#include <cstdint>

namespace bspcheck::rt {

struct Site {
  const char* file = nullptr;  // from bsp.h's macros; nullptr for programs built against another bsp.h
  int line = 0;
  std::uint32_t stack = 0;   // calls made through a wrapper: their calling stack (runtime/executable/call_stacks.hpp)
  const void* pc = nullptr;  // return address of the call, for symbolisation when file is unknown
};

}  // namespace bspcheck::rt
