// foreign_contexts.hpp: code that runs in the run's OS process but outside its BSP processes:
// threads the program creates, and children it forks while the processes run.
//
// A BSP process is single-threaded (BSPlib: p processes, each a sequential program), so a
// BSPlib call from a thread the program created is misuse: on BSPonMPI it races with the
// process's own calls, on MulticoreBSP it has no process at all. Such a thread must not touch the
// World, which its own thread runs without locks: the call has no effect, the first one is kept
// here, and the world reports it (rule foreign-thread) at the next bsp_sync or bsp_end of its own
// thread. A forked child is not a BSP process either (outside bsp-check it is a separate OS
// process that no BSPlib implementation knows): its output goes straight to the real stream (it
// used to stay in the child's copy of a process's line buffer and be lost), its exit writes no
// report, and a BSPlib call in it ends it with a message. That call is kept too, in a page the
// child shares with the run's process, so that the world reports it as it reports a thread's
// (the same rule: code that runs beside a process without being one). exec* during the SPMD part
// would replace every process of the run at once: it is reported (rule process-exec) and not done.
#pragma once

#include <atomic>

#include "runtime/base/site.hpp"

namespace bspcheck::rt {

// Set on the thread that runs the current world (its processes are fibers of that thread).
extern __thread bool t_world_thread __attribute__((tls_model("initial-exec")));
inline bool on_world_thread() { return t_world_thread; }

// True in a child that the program forked while a world ran.
bool in_forked_child();

// A BSPlib call made where no process of the world runs (another thread, a forked child): it
// keeps the first such call for the world to report; in a forked child it then says so on stderr
// and ends the child. The caller gives the call no effect.
void call_outside_world_thread(const char* call, const Site& site);

// The first BSPlib call from another thread or a forked child, kept for the world's own thread.
struct ForeignThreadCall {
  const char* call = nullptr;
  Site site;
  int creator = -1;           // the process that created the thread or forked the child; -1: none known
  bool forked_child = false;  // made in a forked child, not a thread
};
extern std::atomic<int> g_foreign_call_state;  // 0 none, 1 being written, 2 kept
// Where forked children keep their call (a shared page, mapped at the first fork during a run).
struct ForkedChildCall;
extern ForkedChildCall* g_forked_child_call;
bool forked_child_call_kept();
// Checked at every bsp_sync and bsp_end: two loads while no thread or child has called.
inline bool foreign_thread_call_pending() {
  return g_foreign_call_state.load(std::memory_order_acquire) == 2 ||
         (__builtin_expect(g_forked_child_call != nullptr, false) && forked_child_call_kept());
}
ForeignThreadCall take_foreign_thread_call();

// The process running when the calling thread was created (its own pid on the world's thread):
// what bsp_pid answers a thread that asks.
int creator_process();

}  // namespace bspcheck::rt
