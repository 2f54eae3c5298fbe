// snapshot_descriptors.hpp: the open descriptors of a process snapshot's moment
// (process_snapshot.hpp): saved with their files and offsets when it is taken; at the end of a
// run, checked to be the same files still, and those the run opened found for closing.
#pragma once

#include "runtime/isolation/snapshot_vault.hpp"

#pragma GCC visibility push(hidden)
namespace bspcheck::rt::snapshot {

// Saves the open descriptors (v.fds, ascending, each with its file and, for a regular file, its
// offset), and whether the kernel can close those opened since without a listing (close_range).
// False when they cannot be listed or are too many.
bool save_descriptors(Vault& v);

// At the end of a run: whether every descriptor of the moment is still open on the same file
// (stdout and stderr excepted, set up by each run), and, without close_range, which ones the run
// opened (v.close_fds), for the restore to close.
bool plan_descriptors(Vault& v);

}  // namespace bspcheck::rt::snapshot
#pragma GCC visibility pop
