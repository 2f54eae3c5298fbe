// PrivateGlobals on its own (runtime/isolation/private_globals.hpp): memory of a made-up program image,
// switched between processes by copying and by remapping, reached through canonical addresses,
// with per-process errno, constructors and exit handlers. The end-to-end behaviour with real
// executables is tests/privatization.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/isolation/private_globals.hpp"
#include "runtime/executable/program_image.hpp"

using bspcheck::rt::PrivateGlobals;
using bspcheck::rt::PrivateRange;
using bspcheck::rt::ProgramImage;

namespace {

// A page-aligned region standing for an executable's data segment, plus a small "TLS block".
struct FakeProgram {
  std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  std::size_t data_size;
  std::byte* data;
  std::byte tls[16];
  ProgramImage image;

  explicit FakeProgram(std::size_t pages) : data_size(pages * page) {
    data = static_cast<std::byte*>(
        mmap(nullptr, data_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    std::memset(data, 'i', data_size);  // the initial image: all 'i'
    std::memset(tls, 't', sizeof tls);
    image.ranges = {{data, data_size, false, data}, {tls, sizeof tls, true, nullptr}};
    image.total = data_size + sizeof tls;
    image.initial.assign(image.total, std::byte{'i'});
    std::memset(image.initial.data() + data_size, 't', sizeof tls);
    image.exe_lo = reinterpret_cast<std::uintptr_t>(data);
    image.exe_hi = image.exe_lo + data_size;
  }
  ~FakeProgram() { munmap(data, data_size); }
  char at(std::size_t i) const { return static_cast<char>(data[i]); }
};

// The same checks for both ways of switching.
void exercise(FakeProgram& prog, std::size_t remap_at) {
  std::memset(prog.data, '0', prog.data_size);  // process 0's values (the program ran a while)
  {
    PrivateGlobals g(prog.image, 3, true, {}, remap_at);
    EXPECT_EQ(g.remapped(), remap_at <= prog.data_size);
    g.switch_to(0, 1);  // process 1 starts from the initial image
    EXPECT_EQ(prog.at(0), 'i');
    EXPECT_EQ(prog.at(prog.data_size - 1), 'i');
    EXPECT_EQ(static_cast<char>(prog.tls[0]), 't');
    std::memset(prog.data, '1', prog.data_size);
    prog.tls[0] = std::byte{'T'};
    g.switch_to(1, 0);
    EXPECT_EQ(prog.at(5), '0') << "process 0 sees its own values again";
    EXPECT_EQ(static_cast<char>(prog.tls[0]), 't');
    g.switch_to(0, 1);
    EXPECT_EQ(prog.at(5), '1');
    EXPECT_EQ(static_cast<char>(prog.tls[0]), 'T');

    // Canonical addresses: distinct per process, and the engine's writes reach the owner's copy.
    void* c0 = g.canonical(0, prog.data + 8);
    void* c2 = g.canonical(2, prog.data + 8);
    EXPECT_NE(c0, c2);
    EXPECT_NE(c0, static_cast<void*>(prog.data + 8));
    EXPECT_TRUE(g.in_slot(c0));
    EXPECT_FALSE(g.in_slot(prog.data + 8));
    int outside = 0;
    EXPECT_EQ(g.canonical(1, &outside), &outside) << "memory outside the image is not translated";
    g.flush();
    std::memcpy(c0, "zz", 2);  // a put into process 0's copy while process 1 runs
    void* c1 = g.canonical(1, prog.data + 16);
    std::memcpy(c1, "yy", 2);  // and into the running process's own copy
    g.reload();
    EXPECT_EQ(prog.at(16), 'y') << "the running process sees a write into its own copy after reload";
    EXPECT_EQ(prog.at(8), '1') << "a write into another process's copy does not show in the live values";
    g.switch_to(1, 0);
    EXPECT_EQ(prog.at(8), 'z');
    EXPECT_EQ(prog.at(7), '0');
    g.switch_to(0, 1);
    g.switch_to(1, 0);  // process 0 is live when the world ends
  }
  EXPECT_EQ(prog.at(8), 'z') << "process 0 keeps its values after the world";
}

TEST(PrivateGlobals, CopiedSwitchKeepsEachProcessesValues) {
  FakeProgram prog(2);
  exercise(prog, std::size_t{1} << 40);
}

TEST(PrivateGlobals, RemappedSwitchKeepsEachProcessesValues) {
  FakeProgram prog(3);
  exercise(prog, 0);
}

TEST(PrivateGlobals, ErrnoIsPerProcess) {
  FakeProgram prog(1);
  PrivateGlobals g(prog.image, 2, true, {}, std::size_t{1} << 40);
  errno = 11;
  g.switch_to(0, 1);
  EXPECT_EQ(errno, 0) << "a new process starts with errno 0";
  errno = 22;
  g.switch_to(1, 0);
  EXPECT_EQ(errno, 11);
  g.switch_to(0, 1);
  EXPECT_EQ(errno, 22);
  g.switch_to(1, 0);
}

TEST(PrivateGlobals, BspInitStartImageInsteadOfConstructors) {
  FakeProgram prog(1);
  std::vector<std::byte> at_init(prog.image.total, std::byte{'s'});
  PrivateGlobals g(prog.image, 2, false, at_init, std::size_t{1} << 40);
  g.switch_to(0, 1);
  EXPECT_EQ(prog.at(0), 's');
  g.switch_to(1, 0);
}

std::vector<std::string> g_events;
void constructor_a(int, char**, char**) { g_events.push_back("ctor a"); }
void constructor_b(int, char**, char**) { g_events.push_back("ctor b"); }
void handler(void* arg) { g_events.push_back(static_cast<const char*>(arg)); }

TEST(PrivateGlobals, ConstructorsAndExitHandlersPerProcess) {
  FakeProgram prog(1);
  prog.image.constructors = {&constructor_a, &constructor_b};
  PrivateGlobals g(prog.image, 2, true, {}, std::size_t{1} << 40);
  g_events.clear();
  g.start_process(0, [] { g_events.push_back("prepare"); });
  EXPECT_TRUE(g_events.empty()) << "process 0 is the program's own start";
  g.switch_to(0, 1);
  g.start_process(1, [] { g_events.push_back("prepare"); });
  EXPECT_EQ(g_events, (std::vector<std::string>{"prepare", "ctor a", "ctor b"}));
  // Registered while process 1 runs, by the executable (null handle, or one inside it).
  EXPECT_TRUE(g.take_exit_handler(&handler, const_cast<char*>("first"), nullptr));
  EXPECT_TRUE(g.take_exit_handler(&handler, const_cast<char*>("second"), prog.data));
  int elsewhere = 0;
  EXPECT_FALSE(g.take_exit_handler(&handler, const_cast<char*>("library"), &elsewhere))
      << "a shared library's destructors are not the process's";
  g_events.clear();
  g.finish_process(1);
  EXPECT_EQ(g_events, (std::vector<std::string>{"second", "first"}));
  g.switch_to(1, 0);
  EXPECT_FALSE(g.take_exit_handler(&handler, const_cast<char*>("p0"), nullptr)) << "process 0 uses the C library's";
}

}  // namespace

// copy_raw, which switches the copied ranges: every length up to 48 (each tail case, and the
// short copy's first loops) and lengths around the short-copy limit and into `rep movsb`, at
// every pair of source and destination alignments within 16 bytes, moves exactly the n bytes
// asked for (short copies overlap their last move with the previous one, so an off-by-one there
// writes a byte before or after the range, or leaves one out).
TEST(CopyRaw, CopiesExactlyTheBytesAskedForAtAnyLengthAndAlignment) {
  std::vector<unsigned char> src(2200), dst(2200), want(2200);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 7 + 3);
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n <= 48; ++n) lengths.push_back(n);
  for (std::size_t n : {63, 64, 65, 100, 312, 1007, 1008, 1009, 1023, 1024, 1025, 2000}) lengths.push_back(n);
  for (std::size_t n : lengths) {
    for (std::size_t s_off = 0; s_off < 16; ++s_off) {
      for (std::size_t d_off = 0; d_off < 16; ++d_off) {
        std::memset(dst.data(), 0xEE, dst.size());
        want = dst;
        std::memcpy(want.data() + 64 + d_off, src.data() + s_off, n);
        bspcheck::rt::copy_raw(dst.data() + 64 + d_off, src.data() + s_off, n);
        ASSERT_EQ(dst, want) << "n = " << n << ", source offset " << s_off << ", destination offset " << d_off;
      }
    }
  }
}
