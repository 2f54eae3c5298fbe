// snapshot_plan.hpp: what a process snapshot (process_snapshot.hpp) saves when it is taken, and
// what a restore must undo at the end of a run, planned into the vault (snapshot_vault.hpp)
// before the helper context (snapshot_helper.hpp) copies anything.
//
// Why planned apart from the copy: the copy runs on the helper's stack with the C library's
// memory changing under it, so every decision (which mappings, which ranges to remove, which
// shadow to clear) is made before, where reading /proc and the C library is safe.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/isolation/snapshot_vault.hpp"

#pragma GCC visibility push(hidden)
namespace bspcheck::rt::snapshot {

// What take() saves, from the moment's mappings (v.mappings): every private writable mapping but
// the vault's own, the sanitizer's shadow and those left unsaved (ProcessSnapshot::leave_unsaved),
// the main stack whole; under AddressSanitizer, the shadow of those. Sets v.shadow, the regions
// and the main stack's bounds, and `total` to the bytes they take in the store. False when the
// main stack's mapping is not the one `here` (an address on the main stack) lies in.
bool plan_saving(Vault& v, std::uintptr_t here, std::size_t& total);

// The ranges a run's end keeps (v.keep: every mapping of the moment, the vault and the store,
// whose range must be set) and the start of the heap.
void plan_keeping(Vault& v);

// At the end of a run: the mappings to remove and the saved ones to map anew (v.unmap, the
// regions' `recreate`, v.reserves), from the vault's records when they can be trusted, from
// /proc/self/maps otherwise. False when the moment cannot be reached.
bool plan_unmapping(Vault& v);

// Under AddressSanitizer, after plan_unmapping: the shadow a restore clears (v.shadow_clears).
// False when the list is full.
bool plan_shadow_clears(Vault& v);

}  // namespace bspcheck::rt::snapshot
#pragma GCC visibility pop
