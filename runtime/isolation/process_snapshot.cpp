// The snapshot's steps, in the order a worker takes them: take() plans what to save
// (snapshot_plan), saves the descriptors (snapshot_descriptors) and signal state, and has the
// helper context (snapshot_helper) copy the memory into the vault's store (snapshot_vault);
// prepare_restore() plans what the run's end undoes; restore() has the helper undo it.
#include "runtime/isolation/process_snapshot.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "runtime/base/runtime_file.hpp"
#include "runtime/isolation/proc_self.hpp"
#include "runtime/isolation/raw_syscall.hpp"
#include "runtime/isolation/snapshot_descriptors.hpp"
#include "runtime/isolation/snapshot_helper.hpp"
#include "runtime/isolation/snapshot_plan.hpp"
#include "runtime/isolation/snapshot_vault.hpp"
#include "runtime/isolation/written_pages.hpp"

namespace bspcheck::rt {

using namespace snapshot;  // the snapshot's internals (snapshot_vault.hpp)

ProcessSnapshot::Taken ProcessSnapshot::take(std::size_t limit) {
  if (g_vault || count_threads() != 1) return Taken::unavailable;
  Vault* v = map_vault();
  if (!v) return Taken::unavailable;
  v->nmappings = read_mappings(v->maps_text, kMapsText, v->mappings, kMaxMappings);
  if (v->nmappings < 0) {
    unmap_vault(v);
    return Taken::unavailable;
  }
  // What to save: every private writable mapping but the vault, the main stack whole.
  std::uintptr_t here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  std::size_t total = 0;
  if (!plan_saving(*v, here, total) || total > limit) {
    unmap_vault(v);
    return Taken::unavailable;
  }
  const std::size_t store_bytes = (total + kPage - 1) / kPage * kPage + 2 * kPage;
  char* store = map_apart(store_bytes);
  if (!store) {
    unmap_vault(v);
    return Taken::unavailable;
  }
  v->store_lo = reinterpret_cast<std::uintptr_t>(store) + kPage;
  v->store_hi = reinterpret_cast<std::uintptr_t>(store) + store_bytes;
  v->saved = total;
  v->brk = static_cast<std::uintptr_t>(raw_syscall(SYS_brk, 0));
  sigprocmask(SIG_BLOCK, nullptr, &v->mask);
  // The C library's own function, not the interposed one, whose first call would allocate (dlsym)
  // here instead of in the run as in a fresh child, and so move the run's heap.
  for (int s = 1; s <= 64; ++s) __sigaction(s, nullptr, &v->dispositions[s]);
  v->touched_signals = 0;
  raw_syscall(SYS_sigaltstack, 0, reinterpret_cast<long>(&v->signal_stack));
  v->signal_stack_touched = false;
  open_write_tracking(*v);  // its descriptors among those saved, which no restore closes
  v->statm_fd = open_statm();
  if (!save_descriptors(*v)) {
    close_write_tracking(*v);
    if (v->statm_fd >= 0) close_runtime_fd(v->statm_fd);
    munmap(store, store_bytes);
    unmap_vault(v);
    return Taken::unavailable;
  }
  plan_keeping(*v);
  v->loaded_objects = loaded_objects();
  v->ncreated = 0;
  v->nmapped = 0;
  v->nshelved = 0;
  v->untracked = false;
  v->vm_pages = vm_pages(v->statm_fd);  // the vault and the store included
  g_vault = v;
  g_threads_started = 0;
  // Suspend here on the main stack while the helper saves it; restore() resumes the same moment.
  const fctx::fcontext_t helper = fctx::make_fcontext(v->helper_stack + kHelperStack, kHelperStack, &helper_entry);
  const fctx::transfer_t back = fctx::jump_fcontext(helper, reinterpret_cast<void*>(kDoSave));
  return reinterpret_cast<std::uintptr_t>(back.data) == kRestored ? Taken::restored : Taken::saved;
}

bool ProcessSnapshot::prepare_restore() {
  Vault* vp = g_vault;
  if (!vp || g_threads_started > 0) return false;
  Vault& v = *vp;
  v.nunmap = v.nreserves = v.nshadow_clears = 0;
  if (!plan_unmapping(v) || !plan_shadow_clears(v)) return false;
  // Shelved mappings the run took and did not give back are in the plan's unmapping.
  int kept = 0;
  for (int i = 0; i < v.nshelved; ++i)
    if (!v.shelf[i].taken) v.shelf[kept++] = v.shelf[i];
  v.nshelved = kept;
  return plan_descriptors(v);
}

void ProcessSnapshot::restore() {
  run_helper(kDoRestore);
  __builtin_trap();
}

std::size_t ProcessSnapshot::saved_bytes() { return g_vault ? g_vault->saved : 0; }

bool ProcessSnapshot::copies_back_only_written_pages() { return g_vault && g_vault->tracking; }

void ProcessSnapshot::clear_as_fresh(void* addr, std::size_t bytes) {
  const auto lo = reinterpret_cast<std::uintptr_t>(addr);
  if (swap_in_use() && raw_syscall(SYS_madvise, static_cast<long>(lo), static_cast<long>(bytes), MADV_DONTNEED) == 0)
    return;
  if (g_vault) {
    clear_resident(*g_vault, lo, lo + bytes);  // the vault has room for mincore's answer
  } else {
    unsigned char resident[256];
    clear_resident(resident, sizeof resident, lo, lo + bytes);
  }
}

}  // namespace bspcheck::rt
