#include "runtime/private_globals.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <new>

extern char** environ;

namespace bspcheck::rt {

PrivateGlobals* PrivateGlobals::active_ = nullptr;

namespace {
int g_main_argc = 0;
char** g_main_argv = nullptr;
}  // namespace

void PrivateGlobals::set_main_arguments(int argc, char** argv) {
  g_main_argc = argc;
  g_main_argv = argv;
}

PrivateGlobals::PrivateGlobals(const ProgramImage& image, int nprocs, bool rerun_constructors,
                               std::vector<std::byte> start)
    : image_(image),
      p_(nprocs),
      rerun_constructors_(rerun_constructors && !image.sanitized),
      start_(std::move(start)),
      stride_((image.total + 63) & ~std::size_t{63}),
      loaded_once_(static_cast<std::size_t>(nprocs), 0),
      errno_of_(static_cast<std::size_t>(nprocs), 0),
      errno_slot_(&errno),
      exit_handlers_(static_cast<std::size_t>(nprocs)) {
  if (!rerun_constructors_ && start_.size() != image_.total) start_ = image_.initial;
  slots_bytes_ = stride_ * static_cast<std::size_t>(nprocs);
  if (slots_bytes_) {
    // Reserved, not committed: a slot's pages are touched only once its process has run.
    void* m = mmap(nullptr, slots_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    slots_ = static_cast<std::byte*>(m);
  }
  active_ = this;
}

PrivateGlobals::~PrivateGlobals() {
  if (slots_) munmap(slots_, slots_bytes_);
  if (active_ == this) active_ = nullptr;
}

void PrivateGlobals::save(int pid) {
  std::byte* to = slot(pid);
  for (const PrivateRange& r : image_.ranges) {
    copy_raw(to, r.lo, r.size);
    to += r.size;
  }
  loaded_once_[static_cast<std::size_t>(pid)] = 1;
}

void PrivateGlobals::load(int pid) {
  const std::byte* from = loaded_once_[static_cast<std::size_t>(pid)] ? slot(pid)
                          : rerun_constructors_                       ? image_.initial.data()
                                                                      : start_.data();
  for (const PrivateRange& r : image_.ranges) {
    copy_raw(r.lo, from, r.size);
    from += r.size;
  }
}

void PrivateGlobals::start_process(int pid, const std::function<void()>& prepare) {
  if (pid == 0) return;  // process 0 is the program's own start
  if (prepare) prepare();
  if (!rerun_constructors_) return;
  for (auto* ctor : image_.constructors) ctor(g_main_argc, g_main_argv, environ);
}

void PrivateGlobals::finish_process(int pid) {
  auto& handlers = exit_handlers_[static_cast<std::size_t>(pid)];
  while (!handlers.empty()) {  // last registered first; a handler may register more
    const ExitHandler h = handlers.back();
    handlers.pop_back();
    h.fn(h.arg);
  }
}

bool PrivateGlobals::take_exit_handler(void (*fn)(void*), void* arg, void* dso) {
  // Process 0's destructors run at the real exit, where its values are live again.
  // A non-PIE executable's handle is null (so is atexit's there); shared libraries pass their own.
  if (resident_ == 0 || (dso && !image_.contains(dso))) return false;
  exit_handlers_[static_cast<std::size_t>(resident_)].push_back({fn, arg});
  return true;
}

}  // namespace bspcheck::rt
