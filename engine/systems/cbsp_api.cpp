// cbsp_api.cpp: the cBSP primitives with the C signatures of include/cbsp.h. Each records its call
// site and its trace record (replay/trace_format.hpp), hands the call to the CbspRuntime of the running world and ends
// in a switch point, like the BSPlib primitives (c_api.cpp).
#define BSPCHECK_NO_SITE_MACROS
#include "cbsp.h"

#include "engine/frontends/call_entry.hpp"
#include "engine/systems/cbsp_runtime.hpp"
#include "engine/core/world.hpp"
#include "replay/trace_format.hpp"

using bspcheck::rt::CbspRuntime;
using bspcheck::rt::World;
using Call = bspcheck::trace::Call;

namespace {
CbspRuntime& cbsp(World& w) { return w.local_sync().client<CbspRuntime>(); }
}  // namespace

extern "C" {

void cBSP_initialize(void) {
  // Buffers and node numbers need no set-up here: the runtime keeps them from the first call.
  World* w = bspcheck::rt::enter_call("cBSP_initialize", __builtin_return_address(0));
  if (!w) return;
  w->traced_call(Call::cbsp_initialize, -1, 0);
  cbsp(*w).initialize();
  w->switch_point();
}

void cBSP_send(int node, void* destAddr, const void* srcAddr, int nbytes, cBSP_handler handler) {
  World* w = bspcheck::rt::enter_call("cBSP_send", __builtin_return_address(0));
  if (!w) return;
  // The bytes sent are the source's at the call (they are copied there).
  w->traced_call(Call::cbsp_send, node, nbytes, srcAddr, srcAddr && nbytes > 0 ? static_cast<std::size_t>(nbytes) : 0);
  cbsp(*w).send(node, destAddr, srcAddr, nbytes, handler);
  w->switch_point();
}

void cBSP_nsync(int count) {
  World* w = bspcheck::rt::enter_call("cBSP_nsync", __builtin_return_address(0));
  if (!w) return;
  cbsp(*w).nsync(count);
  // Recorded once the sync is done: the handlers it ran belong to the superstep it ends, and so
  // do their calls, which come before this record.
  w->traced_call(Call::cbsp_nsync, -1, count);
  w->switch_point();
}

void cBSP_gsync(void) {
  World* w = bspcheck::rt::enter_call("cBSP_gsync", __builtin_return_address(0));
  if (!w) return;
  cbsp(*w).gsync();
  w->traced_call(Call::cbsp_gsync, -1, 0);  // once done, as cBSP_nsync
  w->switch_point();
}

}  // extern "C"
