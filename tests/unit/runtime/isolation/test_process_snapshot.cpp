// ProcessSnapshot on its own (runtime/isolation/process_snapshot.hpp): a forked child saves a moment, changes
// memory, mappings, descriptors and signal dispositions, and is brought back to the moment with
// all of it as it was; what cannot be brought back is refused. Each case runs in a child of its
// own, whose exit status is the verdict (the test process itself is never restored).
#include <gtest/gtest.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "runtime/isolation/process_snapshot.hpp"

using bspcheck::rt::ProcessSnapshot;

namespace {

#if defined(__SANITIZE_ADDRESS__)
// A worker brings a sanitized program back too (runtime/isolation/sanitizer_shadow.hpp), and every
// check below holds there, but for one: the sanitizer's own mappings (its shadow, which a restore
// clears where a run wrote) are not listed in /proc/self/maps exactly as at the moment.
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

int g_counter = 0;
char g_text[64] = "as saved";

// Runs body in a forked child and returns its exit status (or 128 + signal).
template <class F>
int in_child(F body) {
  const pid_t pid = fork();
  if (pid == 0) std::_Exit(body());
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// /proc/self/maps as text, into a fixed buffer (no allocation between the reads compared).
std::size_t read_maps(char* buf, std::size_t cap) {
  const int fd = open("/proc/self/maps", O_RDONLY);
  std::size_t n = 0;
  for (ssize_t r; (r = read(fd, buf + n, cap - n)) > 0;) n += static_cast<std::size_t>(r);
  close(fd);
  return n;
}

void on_usr1(int) {}

}  // namespace

TEST(ProcessSnapshot, BringsMemoryMappingsDescriptorsAndSignalsBack) {
  const int verdict = in_child([] {
    // What must outlive the restore (how many times the moment was reached, the mappings at the
    // moment) is kept where no restore reaches: a shared mapping.
    struct Kept {
      int visits;
      char maps_at_moment[1 << 16];
      char maps_after[1 << 16];
    };
    auto* kept =
        static_cast<Kept*>(mmap(nullptr, sizeof(Kept), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    kept->visits = 0;
    int* visits = &kept->visits;
    char* heap_block = static_cast<char*>(std::malloc(64));
    std::strcpy(heap_block, "heap as saved");
    int on_stack = 7;
    const ProcessSnapshot::Taken taken = ProcessSnapshot::take(64u << 20);
    if (taken == ProcessSnapshot::Taken::unavailable) return 11;
    ++*visits;
    if (*visits == 1) {
      if (taken != ProcessSnapshot::Taken::saved) return 12;
      const std::size_t n = read_maps(kept->maps_at_moment, sizeof kept->maps_at_moment - 1);
      kept->maps_at_moment[n] = '\0';
      // A run: globals, the stack, the heap (and the break), new mappings, descriptors, signals.
      g_counter = 41;
      std::strcpy(g_text, "changed");
      on_stack = 8;
      std::strcpy(heap_block, "heap changed");
      for (int i = 0; i < 1000; ++i) heap_block = static_cast<char*>(std::malloc(1000));  // grows the break
      void* big = std::malloc(8 << 20);                                                   // a mapping of its own
      static_cast<char*>(big)[0] = 1;
      char* made =
          static_cast<char*>(mmap(nullptr, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
      munmap(made + (64 << 10), 4096);  // splits the new mapping in two: both parts must go
      munmap(made, 4096);               // and one part loses its first page
      if (open("/dev/null", O_RDONLY) < 0) return 13;
      signal(SIGUSR1, on_usr1);
      if (!ProcessSnapshot::prepare_restore()) return 14;
      ProcessSnapshot::restore();
    }
    if (taken != ProcessSnapshot::Taken::restored) return 15;
    if (*visits != 2) return 16;
    if (g_counter != 0 || std::strcmp(g_text, "as saved") != 0) return 17;
    if (on_stack != 7 || std::strcmp(heap_block, "heap as saved") != 0) return 18;
    struct sigaction now {};
    sigaction(SIGUSR1, nullptr, &now);
    if (now.sa_handler != SIG_DFL) return 19;
    const std::size_t n = read_maps(kept->maps_after, sizeof kept->maps_after - 1);
    kept->maps_after[n] = '\0';
    if (!kSanitized && std::strcmp(kept->maps_at_moment, kept->maps_after) != 0) return 20;
    return 0;
  });
  EXPECT_EQ(verdict, 0) << "10-20: which check failed (see the test)";
}

// Pages that hold only zeros at the moment are not copied back (snapshot_helper.cpp, "zero
// spans"): whatever a run writes there, or only reads, must read as zeros after each restore,
// in the .bss and in the heap, run after run.
char g_zeros[256 << 10];

TEST(ProcessSnapshot, ClearsWhatARunWroteToPagesThatWereZero) {
  const int verdict = in_child([] {
    auto* visits = static_cast<int*>(mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    *visits = 0;
    constexpr std::size_t kHeapBytes = 512 << 10;
    char* heap_zeros = static_cast<char*>(std::calloc(1, kHeapBytes));
    g_zeros[0] = 1;  // one page that is not zero, before the zero spans
    const ProcessSnapshot::Taken taken = ProcessSnapshot::take(64u << 20);
    if (taken == ProcessSnapshot::Taken::unavailable) return 11;
    const int run = ++*visits;
    for (std::size_t i = 1; i < sizeof g_zeros; ++i)
      if (g_zeros[i] != 0) return 12;
    if (g_zeros[0] != 1) return 13;
    for (std::size_t i = 0; i < kHeapBytes; ++i)
      if (heap_zeros[i] != 0) return 14;
    if (run == 4) return 0;
    // Each run writes other pages (and the pages the last run wrote, which are resident now).
    for (std::size_t at = 4096 * static_cast<std::size_t>(run); at < sizeof g_zeros; at += 4096 * 3)
      g_zeros[at + 17] = 'x';
    for (std::size_t at = 4096 * static_cast<std::size_t>(run); at < kHeapBytes; at += 4096 * 5) heap_zeros[at] = 'y';
    g_zeros[sizeof g_zeros - 1] = 'z';
    if (!ProcessSnapshot::prepare_restore()) return 15;
    ProcessSnapshot::restore();
  });
  EXPECT_EQ(verdict, 0) << "10-15: which check failed (see the test)";
}

// What a run leaves on the main stack below the frame of the moment, where process 0's next
// calls put their locals, is gone in the next run: each run finds there what the first found,
// down to where a deep run grew the stack past its mapping of the moment (fresh zeros then).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"  // reading what was left there is the point
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
__attribute__((noinline)) std::uint64_t sum_then_fill(int run) {
  volatile unsigned char below[768 << 10];  // deeper than the stack's first mapping (132 KiB)
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < sizeof below; i += 61) sum = sum * 31 + below[i];  // as left before
  for (std::size_t i = 0; i < sizeof below; i += 97) below[i] = static_cast<unsigned char>(run * 7 + 1);
  return sum;
}
#pragma GCC diagnostic pop

TEST(ProcessSnapshot, EveryRunFindsTheMainStackBelowTheMomentAsTheFirstDid) {
  const int verdict = in_child([] {
    auto* kept =
        static_cast<std::uint64_t*>(mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    kept[0] = 0;  // runs so far
    const ProcessSnapshot::Taken taken = ProcessSnapshot::take(64u << 20);
    if (taken == ProcessSnapshot::Taken::unavailable) return 11;
    const int run = static_cast<int>(++kept[0]);
    const std::uint64_t sum = sum_then_fill(run);
    if (run == 1) kept[1] = sum;
    else if (sum != kept[1]) return 12;
    if (run == 4) return 0;
    if (!ProcessSnapshot::prepare_restore()) return 13;
    ProcessSnapshot::restore();
  });
  EXPECT_EQ(verdict, 0) << "10-13: which check failed (see the test)";
}

TEST(ProcessSnapshot, ClosesDescriptorsOpenedSinceAndRewindsFiles) {
  const int verdict = in_child([] {
    // Kept where no restore reaches: a shared mapping.
    auto* visits = static_cast<int*>(mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    const int file = open("/proc/self/exe", O_RDONLY);
    const ProcessSnapshot::Taken taken = ProcessSnapshot::take(64u << 20);
    if (taken == ProcessSnapshot::Taken::unavailable) return 11;
    if (++*visits == 1) {
      char byte;
      if (read(file, &byte, 1) != 1) return 12;  // moves the offset
      visits[1] = open("/dev/null", O_RDONLY);
      if (!ProcessSnapshot::prepare_restore()) return 13;
      ProcessSnapshot::restore();
    }
    if (fcntl(visits[1], F_GETFD) != -1) return 14;  // closed by the restore
    if (lseek(file, 0, SEEK_CUR) != 0) return 15;    // offset set back
    return 0;
  });
  EXPECT_EQ(verdict, 0);
}

TEST(ProcessSnapshot, RefusesWhatCannotBeBroughtBack) {
  // A thread started since the moment.
  EXPECT_EQ(in_child([] {
              if (ProcessSnapshot::take(64u << 20) == ProcessSnapshot::Taken::unavailable) return 11;
              pthread_t t;
              pthread_create(
                  &t, nullptr, [](void*) -> void* { return nullptr; }, nullptr);
              pthread_join(t, nullptr);
              return ProcessSnapshot::prepare_restore() ? 1 : 0;
            }),
            0);
  // A descriptor of the moment closed since.
  EXPECT_EQ(in_child([] {
              const int file = open("/proc/self/exe", O_RDONLY);
              if (ProcessSnapshot::take(64u << 20) == ProcessSnapshot::Taken::unavailable) return 11;
              close(file);
              return ProcessSnapshot::prepare_restore() ? 1 : 0;
            }),
            0);
  // More memory than the limit: nothing saved.
  EXPECT_EQ(in_child([] { return ProcessSnapshot::take(4096) == ProcessSnapshot::Taken::unavailable ? 0 : 1; }), 0);
}

TEST(ProcessSnapshot, SetsTheSignalStackBackAndLeavesAnUnsavedMappingAsTheRunLeftIt) {
  const int verdict = in_child([] {
    auto* visits = static_cast<int*>(mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    // A scratch mapping of its own (guard pages around it), left unsaved.
    const std::size_t page = 4096, bytes = 16 * page;
    char* m = static_cast<char*>(mmap(nullptr, bytes + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    char* scratch = m + page;
    if (mprotect(scratch, bytes, PROT_READ | PROT_WRITE) != 0) return 11;
    std::memset(scratch, 'a', bytes);
    if (!ProcessSnapshot::leave_unsaved(scratch, bytes)) return 12;
    // The signal stack of the moment.
    static char moment_stack[1 << 16];
    stack_t ss{};
    ss.ss_sp = moment_stack;
    ss.ss_size = sizeof moment_stack;
    if (sigaltstack(&ss, nullptr) != 0) return 13;
    const ProcessSnapshot::Taken taken = ProcessSnapshot::take(64u << 20);
    if (taken == ProcessSnapshot::Taken::unavailable) return 14;
    if (++*visits == 1) {
      if (ProcessSnapshot::saved_bytes() == 0) return 15;
      std::memset(scratch, 'b', bytes);  // the run's bytes: no restore brings 'a' back
      static char run_stack[1 << 16];
      ss.ss_sp = run_stack;
      if (sigaltstack(&ss, nullptr) != 0) return 16;
      if (!ProcessSnapshot::prepare_restore()) return 17;
      ProcessSnapshot::restore();
    }
    if (ProcessSnapshot::leave_unsaved(scratch, bytes)) return 18;  // only before take()
    stack_t now{};
    sigaltstack(nullptr, &now);
    if (now.ss_sp != moment_stack || now.ss_size != sizeof moment_stack) return 19;
    if (scratch[0] != 'b' || scratch[bytes - 1] != 'b') return 20;
    return 0;
  });
  EXPECT_EQ(verdict, 0) << "11-20: which check failed (see the test)";
}

// Whether this kernel offers what written_pages.hpp needs: a user-mode userfaultfd with
// asynchronous write protection (Linux 6.7) and the pagemap's PAGEMAP_SCAN.
bool kernel_tracks_writes() {
  const int fd = static_cast<int>(syscall(SYS_userfaultfd, O_CLOEXEC | 1 /* UFFD_USER_MODE_ONLY */));
  if (fd < 0) return false;
  uffdio_api api{};
  api.api = UFFD_API;
  api.features = (1u << 15) | (1u << 13);  // UFFD_FEATURE_WP_ASYNC, UFFD_FEATURE_WP_UNPOPULATED
  const bool ok = ioctl(fd, UFFDIO_API, &api) == 0;
  close(fd);
  return ok && access("/proc/self/pagemap", R_OK) == 0;
}

// A restore of a large snapshot copies back only the pages the runs wrote (written_pages.hpp):
// every way a run changes a saved page must show, run after run. Each run finds the moment's
// bytes, then writes other pages: by a store, by the kernel (read(2) into a global), by giving
// pages back (MADV_DONTNEED: zeros), and, in the second run, by replacing a saved mapping with a
// new one, which no scan shows as written: the restore must copy it whole (the third run finds it
// as it was), and what the third run writes there must come back too.
char g_pattern[64 << 12];

TEST(ProcessSnapshot, BringsBackEveryPageARunWroteHoweverItWroteIt) {
  const bool tracked_here = kernel_tracks_writes();
  const int verdict = in_child([tracked_here] {
    auto* visits = static_cast<int*>(mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    *visits = 0;
    constexpr std::size_t kPageBytes = 4096, kMapped = 16 * kPageBytes;
    for (std::size_t i = 0; i < sizeof g_pattern; ++i) g_pattern[i] = static_cast<char>('A' + i % 23);
    char* mapped =
        static_cast<char*>(mmap(nullptr, kMapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    for (std::size_t i = 0; i < kMapped; ++i) mapped[i] = static_cast<char>('a' + i % 19);
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) return 11;
    // Writes are tracked where much is saved (snapshot_helper.cpp, kTrackWritesFrom): 16 MB more.
    if (mmap(nullptr, 16u << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED) return 11;
    const ProcessSnapshot::Taken taken = ProcessSnapshot::take(256u << 20);
    if (taken == ProcessSnapshot::Taken::unavailable) return 12;
    if (tracked_here && !ProcessSnapshot::copies_back_only_written_pages()) return 13;
    const int run = ++*visits;
    for (std::size_t i = 0; i < sizeof g_pattern; ++i)
      if (g_pattern[i] != static_cast<char>('A' + i % 23)) return 14;
    for (std::size_t i = 0; i < kMapped; ++i)
      if (mapped[i] != static_cast<char>('a' + i % 19)) return 15;
    if (run == 4) return 0;
    for (std::size_t at = kPageBytes * static_cast<std::size_t>(run); at < sizeof g_pattern; at += 7 * kPageBytes)
      g_pattern[at + 100] = '!';
    if (write(pipe_fds[1], "kernel", 6) != 6 || read(pipe_fds[0], g_pattern + 40 * kPageBytes + 9, 6) != 6) return 16;
    if (madvise(mapped + static_cast<std::size_t>(run) * kPageBytes, kPageBytes, MADV_DONTNEED) != 0) return 17;
    if (run == 2 &&
        mmap(mapped, kMapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != mapped)
      return 18;
    if (run == 3) mapped[kMapped - 1] = '?';
    if (!ProcessSnapshot::prepare_restore()) return 19;
    ProcessSnapshot::restore();
  });
  EXPECT_EQ(verdict, 0) << "10-19: which check failed (see the test)";
}
