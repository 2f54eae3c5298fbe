// call_entry.hpp: how a dialect's front end starts a primitive the way the classic C API does,
// for the findings it reports itself (a size the engine cannot hold) before any classic call.
#pragma once

#include "engine/core/world.hpp"

namespace bspcheck::rt {

// The world with the call recorded at the site that bsp.h's or mcbsp.h's macro left (else pc,
// the return address into the program); nullptr, after reporting api-misuse, outside
// bsp_begin/bsp_end. Consumes the recorded site, like every primitive.
World* enter_call(const char* call, const void* pc);
// The same with the site given (the _at entry points of calls that are often nested in another
// call's arguments: they must not consume the site the enclosing call's macro left).
World* enter_call_at(const char* call, const Site& site);

}  // namespace bspcheck::rt
