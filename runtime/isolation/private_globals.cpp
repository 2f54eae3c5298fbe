#include "runtime/isolation/private_globals.hpp"

#include "runtime/isolation/libc_start_state.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <system_error>
#include <utility>

#include "runtime/base/runtime_file.hpp"

extern char** environ;

namespace bspcheck::rt {

PrivateGlobals* PrivateGlobals::active_ = nullptr;
PrivateGlobals* PrivateGlobals::running_ = nullptr;

// LeakSanitizer's interface, present when the program is built with -fsanitize=address or leak.
extern "C" void __lsan_register_root_region(const void* p, std::size_t size) __attribute__((weak));

namespace {
int g_main_argc = 0;
char** g_main_argv = nullptr;

// Under LeakSanitizer the copies of processes 1..p-1 are kept, mapped and shown to the leak check
// as roots, after the world too. A separate process's globals are a root of the check at its exit,
// so a block it still points to from a global (a buffer allocated once, the C++ runtime's
// emergency exception pool of a program linked with -static-libstdc++) is no leak; here those
// globals are these copies, and freed they would make every such block a false leak report.
bool keep_for_leak_check() { return __lsan_register_root_region != nullptr; }

std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }
}  // namespace

void PrivateGlobals::set_main_arguments(int argc, char** argv) {
  g_main_argc = argc;
  g_main_argv = argv;
}

PrivateGlobals::PrivateGlobals(const ProgramImage& image, int nprocs, bool rerun_constructors,
                               std::vector<std::byte> start, std::size_t remap_at, Scope scope)
    : image_(image),
      p_(nprocs),
      rerun_constructors_(rerun_constructors),
      start_(std::move(start)),
      ran_(static_cast<std::size_t>(nprocs), 0),
      errno_of_(static_cast<std::size_t>(nprocs), 0),
      errno_slot_(&errno),
      environ_of_(static_cast<std::size_t>(nprocs), environ),
      environ_slot_(scope == Scope::process ? &environ : &shared_environ_stand_in_),
      exit_handlers_(static_cast<std::size_t>(nprocs)),
      thread_exit_handlers_(static_cast<std::size_t>(nprocs)),
      scope_(scope) {
  // Without constructors to run again and no bsp_init image (in-process callers), processes
  // start from process 0's values now: its static objects already constructed.
  if (!rerun_constructors_ && start_.size() != image_.total) start_ = snapshot_ranges(image_);
  if (rerun_constructors_ && scope == Scope::process)
    if (char** start_environment = libc_start_environment())
      for (std::size_t pid = 1; pid < environ_of_.size(); ++pid) environ_of_[pid] = start_environment;
  std::size_t at = 0;
  for (const PrivateRange& r : image_.ranges) {
    if (!r.thread_local_block && !remapped() && r.size >= remap_at && r.page_lo) {
      remap_.image_at = at;
      remap_.image_bytes = r.size;
      set_up_remap(r);
    } else {
      copied_.push_back(r);
      copied_at_.push_back(at);
      stride_ += r.size;
    }
    at += r.size;
  }
  stride_ = (stride_ + 63) & ~std::size_t{63};
  slots_bytes_ = stride_ * static_cast<std::size_t>(nprocs);
  if (slots_bytes_ > kSlotsFromHeap || (slots_bytes_ && keep_for_leak_check())) {
    // Reserved, not committed: a slot's pages are touched only once its process has run.
    void* m = mmap(nullptr, slots_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    slots_ = static_cast<std::byte*>(m);
  } else if (slots_bytes_) {
    // Few bytes: from the heap, where a mapping of their own cost each run of a small program two
    // system calls and a page fault (a fork server's worker restores the heap with the break).
    slots_ = static_cast<std::byte*>(std::aligned_alloc(64, slots_bytes_));  // a multiple of 64
    if (!slots_) throw std::bad_alloc();
    std::memset(slots_, 0, slots_bytes_);
  }
  if (scope_ == Scope::process) active_ = this;
  running_ = this;
  if (keep_for_leak_check() && slots_bytes_) __lsan_register_root_region(slots_, slots_bytes_);
}

void PrivateGlobals::set_up_remap(const PrivateRange& data) {
  const std::size_t page = page_size();
  remap_.lo = reinterpret_cast<std::uintptr_t>(data.page_lo);
  remap_.range_at = static_cast<std::size_t>(data.lo - data.page_lo);
  remap_.size = (remap_.range_at + data.size + page - 1) / page * page;
  const std::size_t total = remap_.size * static_cast<std::size_t>(p_);
  const int fd = out_of_the_way(memfd_create("bsp-check-globals", MFD_CLOEXEC));
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(total)) != 0) {
    if (fd >= 0) close_runtime_fd(fd);
    throw std::system_error(errno, std::generic_category(), "per-process globals: memfd");
  }
  void* view = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
  if (view == MAP_FAILED) {
    close_runtime_fd(fd);
    throw std::system_error(errno, std::generic_category(), "per-process globals: mmap");
  }
  remap_.fd = fd;
  remap_.view = static_cast<std::byte*>(view);
  if (keep_for_leak_check()) __lsan_register_root_region(view, total);
  // Process 0's part holds the live values, then replaces the segment's own pages.
  copy_raw(remap_.view, data.page_lo, remap_.size);
  map_part(0);
}

void PrivateGlobals::map_part(int pid) {
  void* at = mmap(reinterpret_cast<void*>(remap_.lo), remap_.size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                  remap_.fd, static_cast<off_t>(static_cast<std::size_t>(pid) * remap_.size));
  if (at == MAP_FAILED) {  // the segment is gone: no way to go on, and nothing sensible to print into
    static const char msg[] = "bsp-check: fatal: cannot map a process's globals\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(70);
  }
}

PrivateGlobals::~PrivateGlobals() {
  if (remapped()) {
    // Process 0 goes on after the world with its own values; the other parts are given back.
    if (resident_ != 0) map_part(0);
    const std::size_t total = remap_.size * static_cast<std::size_t>(p_);
    if (!keep_for_leak_check()) {
      fallocate(remap_.fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(remap_.size),
                static_cast<off_t>(total - remap_.size));
      munmap(remap_.view, total);
    }
    close_runtime_fd(remap_.fd);  // the segment's mapping keeps the file
  }
  if (keep_for_leak_check()) {
    // kept: see keep_for_leak_check
  } else if (slots_bytes_ > kSlotsFromHeap) {
    munmap(slots_, slots_bytes_);
  } else {
    std::free(slots_);
  }
  if (active_ == this) active_ = nullptr;
  if (running_ == this) running_ = nullptr;
}

const std::byte* PrivateGlobals::start_bytes() const {
  return rerun_constructors_ ? image_.initial.data() : start_.data();
}

void PrivateGlobals::save_copied(int pid) {
  std::byte* to = slot(pid);
  for (const PrivateRange& r : copied_) {
    copy_raw(to, r.lo, r.size);
    to += r.size;
  }
  ran_[static_cast<std::size_t>(pid)] = 1;
}

void PrivateGlobals::load_copied(int pid) {
  if (ran_[static_cast<std::size_t>(pid)]) {
    const std::byte* from = slot(pid);
    for (const PrivateRange& r : copied_) {
      copy_raw(r.lo, from, r.size);
      from += r.size;
    }
    return;
  }
  for (std::size_t i = 0; i < copied_.size(); ++i)
    copy_raw(copied_[i].lo, start_bytes() + copied_at_[i], copied_[i].size);
}

void PrivateGlobals::load(int pid) {
  if (remapped()) {
    if (!ran_[static_cast<std::size_t>(pid)] && pid != 0) {  // its part is still empty
      std::byte* part = remap_.view + static_cast<std::size_t>(pid) * remap_.size;
      copy_raw(part, remap_.view, remap_.range_at);  // the GOT as bound so far (process 0's part)
      copy_raw(part + remap_.range_at, start_bytes() + remap_.image_at, remap_.image_bytes);
    }
    map_part(pid);
  }
  load_copied(pid);
}

void PrivateGlobals::start_process(int pid, const std::function<void()>& prepare) {
  if (pid == 0) return;  // process 0 is the program's own start
  if (prepare) prepare();
  if (!rerun_constructors_) return;
  for (auto* ctor : image_.constructors) ctor(g_main_argc, g_main_argv, environ);
  if (start_.size() == image_.total) take_what_main_set();
}

namespace {

// One aligned word (or the part of one at a range's ends) of a bsp_init program's process, after
// its constructors: `live` takes `at_init`'s bytes when the constructors left it as in the
// `initial` image and main had changed it by bsp_init; true when it did. Whole words, never single
// bytes: a pointer the constructors set (to this process's own heap block) must not take some of
// its bytes from process 0's pointer where they happen to equal the initial image's (a zero
// byte). Raw accesses: the ranges hold sanitizer redzones.
__attribute__((no_sanitize("address", "thread", "undefined"))) bool take_word(std::byte* live, const std::byte* initial,
                                                                              const std::byte* at_init, std::size_t n) {
  auto* l = reinterpret_cast<volatile unsigned char*>(live);
  bool untouched = true, changed_by_main = false;
  for (std::size_t i = 0; i < n; ++i) {
    const auto b = static_cast<unsigned char>(initial[i]);
    untouched = untouched && l[i] == b;
    changed_by_main = changed_by_main || static_cast<unsigned char>(at_init[i]) != b;
  }
  if (!untouched || !changed_by_main) return false;
  for (std::size_t i = 0; i < n; ++i) l[i] = static_cast<unsigned char>(at_init[i]);
  return true;
}

// With a sanitizer's allocator (which does not use the program break): whether p is the start of
// a block it handed out. Weak: absent in plain builds, where break_heap decides.
extern "C" int __sanitizer_get_ownership(const volatile void* p) __attribute__((weak));

// The heap of the program break ([heap] in /proc/self/maps): where glibc's malloc puts the blocks
// a main allocates before bsp_init (those of 128 KiB and more are mappings of their own, not seen
// here).
std::pair<std::uintptr_t, std::uintptr_t> break_heap() {
  std::pair<std::uintptr_t, std::uintptr_t> heap{0, 0};
  if (std::FILE* maps = std::fopen("/proc/self/maps", "re")) {
    char line[512];
    while (std::fgets(line, sizeof line, maps))
      if (std::strstr(line, "[heap]")) {
        unsigned long lo = 0, hi = 0;
        if (std::sscanf(line, "%lx-%lx", &lo, &hi) == 2) heap = {lo, hi};
        break;
      }
    std::fclose(maps);
  }
  return heap;
}

}  // namespace

// A bsp_init program's process 1..p-1 has run the constructors itself: its static objects and
// the heap blocks they own are its own, as under BSPonMPI or the Oxford toolset, where every
// process starts the program (they were copies of process 0's, which shared its blocks: a global
// std::vector that grew in two processes was freed twice). BSPlib 2.1 (6) has bsp_init be the
// first statement of main, so that is all that runs before it; what main set before it anyway (a
// size from argv) is taken from process 0's values at the bsp_init call, in the words the
// constructors did not set.
void PrivateGlobals::take_what_main_set() {
  std::vector<std::pair<std::uintptr_t, std::uint64_t>> taken;  // whole words: address, value
  std::size_t at = 0;
  for (const PrivateRange& r : image_.ranges) {
    const std::byte* initial = image_.initial.data() + at;
    const std::byte* at_init = start_.data() + at;
    for (std::size_t i = 0; i < r.size;) {
      const auto address = reinterpret_cast<std::uintptr_t>(r.lo + i);
      const std::size_t n = std::min<std::size_t>(8 - address % 8, r.size - i);
      // Most words are the same in all three (zeros, constants): one comparison of the two images.
      if ((n != 8 || std::memcmp(initial + i, at_init + i, 8) != 0) &&
          take_word(r.lo + i, initial + i, at_init + i, n) && n == 8 && note_shared_heap_) {
        std::uint64_t value;
        std::memcpy(&value, at_init + i, 8);
        taken.emplace_back(address, value);
      }
      i += n;
    }
    at += r.size;
  }
  if (taken.empty() || !note_shared_heap_) return;
  const int saved_errno = errno;  // the process's own, untouched by reading /proc and the note
  const auto [lo, hi] = __sanitizer_get_ownership ? std::pair<std::uintptr_t, std::uintptr_t>{0, 0} : break_heap();
  std::vector<std::uintptr_t> pointers;
  for (const auto& [address, value] : taken)
    if (__sanitizer_get_ownership ? __sanitizer_get_ownership(reinterpret_cast<const void*>(value)) != 0
                                  : value >= lo && value < hi)
      pointers.push_back(address);
  auto note = std::move(note_shared_heap_);  // once: the first process to start
  note_shared_heap_ = nullptr;
  if (!pointers.empty()) note(pointers);
  errno = saved_errno;
}

void PrivateGlobals::finish_process(int pid) {
  // As at exit(): the thread's thread-local objects first, then the static ones; last registered
  // first, and a destructor may register more.
  for (auto* list : {&thread_exit_handlers_, &exit_handlers_}) {
    auto& handlers = (*list)[static_cast<std::size_t>(pid)];
    while (!handlers.empty()) {
      const ExitHandler h = handlers.back();
      handlers.pop_back();
      h.fn(h.arg);
    }
  }
}

bool PrivateGlobals::take_exit_handler(void (*fn)(void*), void* arg, void* dso) {
  // Process 0's destructors run at the real exit, where its values are live again. A non-PIE
  // executable's handle is null (so is atexit's there); shared libraries pass their own.
  if (scope_ != Scope::process || resident_ == 0 || (dso && !image_.contains(dso))) return false;
  exit_handlers_[static_cast<std::size_t>(resident_)].push_back({fn, arg});
  return true;
}

bool PrivateGlobals::take_thread_exit_handler(void (*fn)(void*), void* obj, void* dso) {
  // Process 0 is the thread's own start: its objects are destroyed at the real exit, where its
  // copy is live again. Objects elsewhere (a shared library's thread-locals) are shared anyway.
  if (resident_ == 0 || (dso && !image_.contains(dso))) return false;
  const auto a = reinterpret_cast<std::uintptr_t>(obj);
  for (const PrivateRange& r : image_.ranges)
    if (r.thread_local_block && a - reinterpret_cast<std::uintptr_t>(r.lo) < r.size) {
      thread_exit_handlers_[static_cast<std::size_t>(resident_)].push_back({fn, obj});
      return true;
    }
  return false;
}

std::vector<PrivateGlobals::DebugRange> PrivateGlobals::debug_ranges() const {
  // The same arithmetic as canonical(), spelled out per range for a reader outside the process.
  std::vector<DebugRange> out;
  const auto at = [](const void* p) { return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p)); };
  if (remapped()) out.push_back({remap_.lo, remap_.size, at(remap_.view), remap_.size});
  std::size_t offset = 0;
  for (const PrivateRange& r : copied_) {
    out.push_back({at(r.lo), r.size, at(slots_ + offset), stride_});
    offset += r.size;
  }
  return out;
}

}  // namespace bspcheck::rt
