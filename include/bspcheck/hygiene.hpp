// hygiene.hpp: RAII bracket for level-1 hygiene checks (see hygiene.h).
#pragma once

#include "bspcheck/hygiene.h"

namespace bspcheck {

class Level1Scope {
 public:
  explicit Level1Scope(const char* name, const char* file = __builtin_FILE(), int line = __builtin_LINE())
      : name_(name), file_(file), line_(line) {
    bspcheck_level1_enter_at(name_, file_, line_);
  }
  ~Level1Scope() { bspcheck_level1_exit_at(name_, file_, line_); }
  Level1Scope(const Level1Scope&) = delete;
  Level1Scope& operator=(const Level1Scope&) = delete;

 private:
  const char* name_;
  const char* file_;
  int line_;
};

}  // namespace bspcheck
