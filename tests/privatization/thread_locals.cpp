// Thread-locals and errno are a process's own whether or not it shares the globals: separate
// processes each have them, and so do MulticoreBSP's threads (this program is built for both,
// the second as thread_locals_mcbsp, where the ordinary global is shared). A thread-local object
// with a destructor is destroyed once per process, with that process's value, when it ends.
// Built a third time with -static-libstdc++ -static-libgcc (thread_locals_static): the program
// then has an unwinder of its own, which processes 1..p-1 leave bsp_end through (main's `local`
// has a destructor to run), program_unwinder.hpp; a fourth time stripped (thread_locals_stripped),
// whose unwinder cannot be found: its processes 1..p-1 end at bsp_end without unwinding. In the
// sanitizer build, what a process keeps allocated from a global to its end is no leak
// (private_globals.cpp, keep_for_leak_check).
#include <bsp.h>

#include <cerrno>
#include <cstdio>
#include <vector>

static thread_local int tl_counter = 5;  // an initial value (.tdata)
static __thread long tl_zero;            // zero (.tbss)
struct Owned {
  std::vector<int> v;
  int owner = -1;
  ~Owned() { std::printf("process %d: destroyed size=%zu\n", owner, v.size()); }
};
static thread_local Owned tl_owned;  // constructed at its first use in each process
int plain_global = 0;
// A block each process allocates once and keeps in a global until its end, never freed: in a
// separate process the global is a root of LeakSanitizer's check at exit, so it is no leak; the
// sanitizer build of this test checks that it is none here either.
// (An element per process: the MulticoreBSP build shares the array.)
static int* kept_for_the_whole_run[8];

int main() {
  bsp_begin(bsp_nprocs());
  const int me = static_cast<int>(bsp_pid());
  const std::vector<int> local(3, me);
  kept_for_the_whole_run[me] = new int[4]{me, me, me, me};
  bool ok = tl_counter == 5 && tl_zero == 0 && tl_owned.owner == -1;
  tl_counter += me;
  tl_zero = 1000 + me;
  tl_owned.owner = me;
  tl_owned.v.assign(static_cast<std::size_t>(100 + me), me);
  for (int s = 0; s < 3; ++s) {
    errno = 200 + me + s;
    bsp_sync();
    ok = ok && errno == 200 + me + s && tl_counter == 5 + me + s && tl_zero == 1000 + me && tl_owned.owner == me &&
         tl_owned.v.size() == static_cast<std::size_t>(100 + me) && tl_owned.v.back() == me &&
         kept_for_the_whole_run[me][3] == me;
    ++tl_counter;
  }
  if (me == 0) plain_global = 42;
  bsp_sync();
  std::printf("process %d: ok=%d global=%d\n", local.back(), ok ? 1 : 0, plain_global);
  bsp_end();
  return 0;
}
