// foreign_contexts.cpp: threads the program creates, children it forks, and exec* (see the
// header). The interposed pthread_create and exec* functions do what the C library's do. A
// forked child's exit skips the exit handlers registered before the fork (the program's among
// them: they would run for every process of the run at once) and flushes its output.
#include "engine/core/foreign_contexts.hpp"

#include <dlfcn.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "bspcheck/rules.hpp"
#include "engine/core/world.hpp"
#include "runtime/isolation/process_snapshot.hpp"
#include "runtime/base/interpose.hpp"

namespace bspcheck::rt {

__thread bool t_world_thread __attribute__((tls_model("initial-exec"))) = false;
std::atomic<int> g_foreign_call_state{0};

// A forked child's first BSPlib call, in memory the run's process shares with its children (the
// child's copy of g_foreign_call would die with it). The strings are copied into it, so that the
// finding does not depend on the parent's memory still holding what the child's pointed at.
struct ForkedChildCall {
  std::atomic<int> state;  // 0 none, 1 being written, 2 kept (as g_foreign_call_state), 3 reported
  char call[32];
  char file[512];
  int line;
  const void* pc;  // the same program image in parent and child: symbolised by the parent
  int forker;
};
static_assert(std::atomic<int>::is_always_lock_free, "shared between OS processes");
ForkedChildCall* g_forked_child_call = nullptr;

bool forked_child_call_kept() { return g_forked_child_call->state.load(std::memory_order_acquire) == 2; }

namespace {

__thread int t_creator __attribute__((tls_model("initial-exec"))) = -1;
bool g_forked_child = false;
ForeignThreadCall g_foreign_call;  // written once by the thread that sets the state to 1

// Before a fork: the lines the world has written to the real streams are flushed, so that the
// child's copies of their buffers are empty (else the child's exit would print them again).
// The shared page for the child's BSPlib call is mapped then, once per run (its children and
// theirs share it): a run whose program never forks maps nothing.
void before_fork() {
  if (World* w = World::current()) {
    std::fflush(w->real_out[0]);
    std::fflush(w->real_out[1]);
    if (!g_forked_child_call) {
      void* page = mmap(nullptr, sizeof(ForkedChildCall), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
      if (page != MAP_FAILED) g_forked_child_call = new (page) ForkedChildCall{};  // zeroed: state 0
    }
  }
}

// The child's exit: its output flushed, and then gone, without the exit handlers and destructors
// of the run's runtime (they belong to the parent: its report, its processes' statics).
void forked_child_exit(int status, void*) {
  std::fflush(nullptr);
  std::_Exit(status);
}

// The child of a fork made while a world runs is not one of its processes.
void on_fork_child() {
  if (World::current() == nullptr) return;  // the fork server's own forks come before the world
  g_forked_child = true;
  t_world_thread = false;
  on_exit(&forked_child_exit, nullptr);  // registered last: runs first
}
[[maybe_unused]] const int g_atfork = pthread_atfork(&before_fork, nullptr, &on_fork_child);

struct ThreadStart {
  void* (*start)(void*);
  void* arg;
  int creator;
};

void* start_thread(void* p) {
  ThreadStart s = *static_cast<ThreadStart*>(p);
  std::free(p);
  t_creator = s.creator;
  return s.start(s.arg);
}

// exec* from a process of a running world: reported, and not done (the run stops). Elsewhere (a
// forked child, before bsp_begin, after bsp_end, another thread) the real exec follows.
void refuse_exec_in_world(const char* fn, const char* file, const void* pc) {
  if (!on_world_thread() || g_forked_child) return;
  World* w = World::current();
  if (!w || !w->self().begun) return;
  w->enter(fn, Site{nullptr, 0, 0, pc});
  w->fatal(Rule::process_exec,
           "process " + std::to_string(w->pid()) + " called " + fn + "(\"" + (file ? file : "") +
               "\") during the SPMD part: it would replace the process's program, and under bsp-check every "
               "process of the run at once (on a real machine the others wait for it at their next bsp_sync "
               "forever); the call was not made");
}

}  // namespace

bool in_forked_child() { return g_forked_child; }

int creator_process() {
  if (t_world_thread) {
    World* w = World::current();
    return w ? w->pid() : -1;
  }
  return t_creator;
}

void call_outside_world_thread(const char* call, const Site& site) {
  if (g_forked_child) {
    // Kept for the run's process first (the first call of any of its children), then the child
    // ends: a BSPlib call has no answer outside the run's processes.
    int expected = 0;
    if (ForkedChildCall* k = g_forked_child_call;
        k && k->state.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) {
      std::snprintf(k->call, sizeof k->call, "%s", call);
      std::snprintf(k->file, sizeof k->file, "%s", site.file ? site.file : "");
      k->line = site.line;
      k->pc = site.pc;
      World* w = World::current();  // the child's copy: its running process is the one that forked
      k->forker = w ? w->pid() : -1;
      k->state.store(2, std::memory_order_release);
    }
    char line[16] = "";  // the file name is printed whole (a buffer for " at FILE:LINE" cut it at 64 bytes)
    if (site.file) std::snprintf(line, sizeof line, ":%d", site.line);
    std::fprintf(stderr,
                 "bsp-check: error: %s called%s%s%s in a child that a process forked: a forked child is not a BSP "
                 "process; it ends here\n",
                 call, site.file ? " at " : "", site.file ? site.file : "", line);
    std::fflush(stderr);
    std::_Exit(1);
  }
  int expected = 0;
  if (!g_foreign_call_state.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) return;
  g_foreign_call.call = call;
  g_foreign_call.site = site;
  g_foreign_call.creator = t_creator;
  g_foreign_call_state.store(2, std::memory_order_release);
}

ForeignThreadCall take_foreign_thread_call() {
  if (g_foreign_call_state.load(std::memory_order_acquire) == 2) {
    ForeignThreadCall c = g_foreign_call;
    g_foreign_call_state.store(0, std::memory_order_release);
    return c;
  }
  // A child's call: its strings stay in the shared page (not reset: the run stops at this report,
  // and a later child's call must not overwrite what the finding points at).
  ForkedChildCall& k = *g_forked_child_call;
  ForeignThreadCall c;
  c.call = k.call;
  c.site = Site{k.file[0] ? k.file : nullptr, k.line, 0, k.pc};
  c.creator = k.forker;
  c.forked_child = true;
  k.state.store(3, std::memory_order_release);  // taken: not pending again, and no child keeps another
  return c;
}

}  // namespace bspcheck::rt

using bspcheck::rt::next_definition;

extern "C" {

int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*), void* arg) {
  bspcheck::rt::note_thread_started();  // the process snapshot can no longer be restored
  static const auto real =
      next_definition<int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*)>("pthread_create");
  auto* s = static_cast<bspcheck::rt::ThreadStart*>(std::malloc(sizeof(bspcheck::rt::ThreadStart)));
  if (!s) return real(thread, attr, start, arg);
  *s = bspcheck::rt::ThreadStart{start, arg, bspcheck::rt::creator_process()};
  const int r = real(thread, attr, &bspcheck::rt::start_thread, s);
  if (r != 0) std::free(s);
  return r;
}

int execve(const char* path, char* const argv[], char* const envp[]) {
  bspcheck::rt::refuse_exec_in_world("execve", path, __builtin_return_address(0));
  static const auto real = next_definition<int (*)(const char*, char* const[], char* const[])>("execve");
  return real(path, argv, envp);
}

int execv(const char* path, char* const argv[]) {
  bspcheck::rt::refuse_exec_in_world("execv", path, __builtin_return_address(0));
  static const auto real = next_definition<int (*)(const char*, char* const[])>("execv");
  return real(path, argv);
}

int execvp(const char* file, char* const argv[]) {
  bspcheck::rt::refuse_exec_in_world("execvp", file, __builtin_return_address(0));
  static const auto real = next_definition<int (*)(const char*, char* const[])>("execvp");
  return real(file, argv);
}

int execvpe(const char* file, char* const argv[], char* const envp[]) {
  bspcheck::rt::refuse_exec_in_world("execvpe", file, __builtin_return_address(0));
  static const auto real = next_definition<int (*)(const char*, char* const[], char* const[])>("execvpe");
  return real(file, argv, envp);
}

int fexecve(int fd, char* const argv[], char* const envp[]) {
  bspcheck::rt::refuse_exec_in_world("fexecve", "", __builtin_return_address(0));
  static const auto real = next_definition<int (*)(int, char* const[], char* const[])>("fexecve");
  return real(fd, argv, envp);
}

// The list forms: their arguments gathered into a vector for the vector forms (stack memory: a
// forked child may call them).
#define BSPCHECK_GATHER_ARGS(arg0, ap, argv)                          \
  std::size_t n = 1;                                                  \
  va_list count;                                                      \
  va_copy(count, ap);                                                 \
  while (va_arg(count, char*) != nullptr) ++n;                        \
  va_end(count);                                                      \
  char** argv = static_cast<char**>(alloca((n + 1) * sizeof(char*))); \
  argv[0] = const_cast<char*>(arg0);                                  \
  for (std::size_t i = 1; i <= n; ++i) argv[i] = va_arg(ap, char*);

int execl(const char* path, const char* arg0, ...) {
  bspcheck::rt::refuse_exec_in_world("execl", path, __builtin_return_address(0));
  va_list ap;
  va_start(ap, arg0);
  BSPCHECK_GATHER_ARGS(arg0, ap, argv)
  va_end(ap);
  return execv(path, argv);
}

int execlp(const char* file, const char* arg0, ...) {
  bspcheck::rt::refuse_exec_in_world("execlp", file, __builtin_return_address(0));
  va_list ap;
  va_start(ap, arg0);
  BSPCHECK_GATHER_ARGS(arg0, ap, argv)
  va_end(ap);
  return execvp(file, argv);
}

int execle(const char* path, const char* arg0, ...) {
  bspcheck::rt::refuse_exec_in_world("execle", path, __builtin_return_address(0));
  va_list ap;
  va_start(ap, arg0);
  BSPCHECK_GATHER_ARGS(arg0, ap, argv)
  char* const* envp = va_arg(ap, char* const*);
  va_end(ap);
  return execve(path, argv, envp);
}

#undef BSPCHECK_GATHER_ARGS

}  // extern "C"
