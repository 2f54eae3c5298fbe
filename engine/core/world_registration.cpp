// world_registration.cpp: World's registration calls (BSPlib 3.1): bsp_push_reg and bsp_pop_reg
// are recorded per process and applied at the barrier (engine/core/registration_sync.hpp).
#include "engine/core/world.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace bspcheck::rt {

void World::push_reg(const void* ident, int size) {
  traced_call(trace::Call::push_reg, -1, size);
  Process& me = self();
  if (size < 0) {
    report(Rule::reg_negative_size,
           "process " + std::to_string(me.pid) + " registers an area of size " + std::to_string(size));
    size = 0;
  }
  me.pushes.push_back({ident, size, me.site});
  registration_requests_ = true;
}

void World::pop_reg(const void* ident) {
  traced_call(trace::Call::pop_reg, -1, 0);
  Process& me = self();
  me.pops.push_back({ident, me.site, me.pushes.size()});
  registration_requests_ = true;
}

void World::apply_registrations() {
  if (!apply_registration_calls(procs_, regs_, diag_, checker_.get(), superstep_)) {
    // The processes disagree on the slots: nothing after this barrier would mean anything.
    stopping_ = true;
    if (mode_ == Mode::program && on_fatal_stop) on_fatal_stop();
    throw ProcessExit{};
  }
}

}  // namespace bspcheck::rt
