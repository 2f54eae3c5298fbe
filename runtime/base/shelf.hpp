// shelf.hpp: where a fork server's worker keeps mappings for its next run (the stacks' chunks,
// runtime/fibers/fiber_stack.cpp), as seen by those that hand mappings on.
//
// The keeper is the worker's snapshot (runtime/isolation/snapshot_vault.cpp), a floor above the
// fibers that use it: it installs itself here when the library loads, so that the fibers reach it
// through this table, with neither an include nor a call at link time pointing up a floor
// (scripts/check_layers.py checks both).
#pragma once

#include <cstddef>
#include <cstdint>

namespace bspcheck::rt {

struct ShelfKeeper {
  bool (*shelving)();                                     // may anything be kept here (a snapshot was taken)?
  void (*clear_as_fresh)(void* addr, std::size_t bytes);  // a mapping given back: as a fresh one reads
  bool (*shelve)(void* addr, std::size_t bytes, std::uint64_t key);  // true when kept
  void* (*unshelve)(std::size_t bytes, std::uint64_t key);           // a kept mapping, or nullptr
};

// The keeper, or nullptr where none is linked in.
inline const ShelfKeeper*& shelf_keeper() {
  static const ShelfKeeper* keeper = nullptr;
  return keeper;
}

}  // namespace bspcheck::rt
