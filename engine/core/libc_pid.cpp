// libc_pid.cpp: getpid under --stable-pid (stable_pid=1). All p BSP processes share one OS
// process, whose id differs from run to run: a program that seeds rand with getpid(), or names a
// scratch file after it, is then no function of its seed, and its processes' files collide (on a
// real BSPlib each process has an id of its own). With stable_pid the runtime defines getpid
// itself (the program's calls bind to it: the runtime library comes before the C library in the
// program's link order): process k reads kStablePidBase + k, the same in every run and another
// than every other process's; before bsp_begin and after bsp_end, process 0's. The values lie
// above the kernel's largest process id (4194304), so one never names another program: kill()
// of one signals the program itself, as kill(getpid(), sig) does on a real BSPlib.
//
// The runtime's own code asks the kernel (SYS_getpid), never this. A child the program forks,
// and another thread, read the real id. Without stable_pid both functions go to the C library's.
#include <signal.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "engine/core/foreign_contexts.hpp"
#include "engine/core/world.hpp"
#include "runtime/base/interpose.hpp"
#include "runtime/options/driver_environment.hpp"
#include "runtime/options/option_values.hpp"

namespace bspcheck::rt {

namespace {

constexpr pid_t kStablePidBase = 4194304 + 1;  // above PID_MAX_LIMIT

using Kill = int (*)(pid_t, int);
std::atomic<Kill> g_real_kill{nullptr};
std::atomic<bool> g_stable_outside{false};  // before bsp_begin and after bsp_end: the options say

// Before main, as libc_clocks.cpp reads virtual_time: only the one key, with the table's parser.
__attribute__((constructor)) void resolve_pid() {
  g_real_kill = next_definition<Kill>("kill");
  const char* env = driver_variable(DriverVariable::options);
  if (!env) return;
  const std::string_view all(env), key = "stable_pid=";
  for (std::size_t at = 0; at <= all.size();) {
    const std::size_t end = std::min(all.find(':', at), all.size());
    const std::string_view item = all.substr(at, end - at);
    if (item.substr(0, key.size()) == key) try {
        g_stable_outside = BoolValue::parse("stable_pid", std::string(item.substr(key.size())));
      } catch (const std::exception&) {
        g_stable_outside = false;
      }
    at = end + 1;
  }
}

pid_t real_pid() { return static_cast<pid_t>(syscall(SYS_getpid)); }

// The calling process's stable id, or -1 where the real one is the answer.
pid_t stable_pid() {
  if (in_forked_child()) return -1;
  if (World* w = World::current()) {
    if (!w->options().stable_pid) return -1;
    return on_world_thread() ? kStablePidBase + w->pid() : -1;
  }
  return g_stable_outside.load(std::memory_order_relaxed) ? kStablePidBase : -1;
}

}  // namespace

}  // namespace bspcheck::rt

extern "C" {

pid_t getpid(void) {
  const pid_t stable = bspcheck::rt::stable_pid();
  return stable >= 0 ? stable : bspcheck::rt::real_pid();
}

int kill(pid_t pid, int sig) {
  using namespace bspcheck::rt;
  // A stable id of this run names the program itself (whichever process: they are one OS process).
  if (pid >= kStablePidBase && stable_pid() >= 0) pid = real_pid();
  const Kill real = g_real_kill.load(std::memory_order_relaxed);
  return real ? real(pid, sig) : static_cast<int>(syscall(SYS_kill, pid, sig));
}

}  // extern "C"
