// snapshot_helper.hpp: the helper context of a process snapshot (process_snapshot.hpp), which
// runs on the vault's own stack (snapshot_vault.hpp) while the main stack is saved or written:
// it copies the moment's memory into the store, and back at a restore with the break, the
// mappings, the descriptors and the signal state the run changed.
#pragma once

#include <signal.h>

#include <cstddef>
#include <cstdint>

#include "runtime/isolation/snapshot_vault.hpp"

// The C library's sigaction under its internal name: the snapshot reads and sets dispositions
// without passing through the interposed sigaction (runtime/isolation/snapshot_interposers.cpp),
// which would note them again.
extern "C" int __sigaction(int, const struct sigaction*, struct sigaction*);

#pragma GCC visibility push(hidden)
namespace bspcheck::rt::snapshot {

// Where the helper context was asked to go.
enum : std::uintptr_t { kDoSave = 1, kDoRestore = 2, kSaved = 3, kRestored = 4 };

// The helper context's entry: t.data is kDoSave or kDoRestore; it jumps back to g_vault->main
// with kSaved or kRestored.
void helper_entry(fctx::transfer_t t);

// Starts the helper context anew on the vault's stack and asks it to go `what`.
void run_helper(std::uintptr_t what);

// Zeros the resident pages of [lo, hi) that are not zeros; the others read as zeros already.
// `resident` holds mincore's answer for `window` pages at a time; the second form uses the vault's.
void clear_resident(unsigned char* resident, std::size_t window, std::uintptr_t lo, std::uintptr_t hi);
void clear_resident(Vault& v, std::uintptr_t lo, std::uintptr_t hi);

// Whether any page of the machine is swapped out: a swapped-out page of ours is not resident,
// whatever it holds.
bool swap_in_use();

}  // namespace bspcheck::rt::snapshot
#pragma GCC visibility pop
