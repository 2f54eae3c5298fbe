// runtime/executable/call_stacks.hpp: which files are wrappers', and findings of calls made through a
// wrapper located at the calling line with the stack (the known-stack shortcut must not mix two
// calling lines up).
#include "unit_helpers.hpp"
#include "wrapped_calls.hpp"

#include "runtime/executable/call_stacks.hpp"
#include "runtime/base/symbol_names.hpp"

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

// A C function's name is shown as it is, even where it reads as a mangled type code ("f" is
// float's, "g" __float128's); a C++ name is demangled.
TEST(CallStacks, OnlyMangledNamesAreDemangled) {
  using bspcheck::rt::demangled;
  EXPECT_EQ(demangled("f"), "f");
  EXPECT_EQ(demangled("g"), "g");
  EXPECT_EQ(demangled("i"), "i");
  EXPECT_EQ(demangled("main"), "main");
  EXPECT_EQ(demangled("_ZN1A3getEv"), "A::get()");
  EXPECT_EQ(demangled("_Z1fi"), "f(int)");
  EXPECT_EQ(demangled("_Znot_mangled"), "_Znot_mangled");
  EXPECT_EQ(demangled(nullptr), "");
}

TEST(CallStacks, HeadersAndNamedFilesAreWrappers) {
  using bspcheck::rt::is_wrapper_file;
  bspcheck::rt::set_wrapper_files("");
  EXPECT_TRUE(is_wrapper_file("/src/registered.hpp"));
  EXPECT_TRUE(is_wrapper_file("wrap.h"));
  EXPECT_TRUE(is_wrapper_file("/usr/include/c++/12/functional"));  // no extension: a standard header
  EXPECT_FALSE(is_wrapper_file("/src/app.cpp"));
  EXPECT_FALSE(is_wrapper_file("ring.c"));
  bspcheck::rt::set_wrapper_files("bsp_wrap.cpp,*/mylib/*.c");
  EXPECT_TRUE(is_wrapper_file("/home/me/src/bsp_wrap.cpp"));
  EXPECT_FALSE(is_wrapper_file("/home/me/src/my_bsp_wrap.cpp")) << "a suffix at a component boundary only";
  EXPECT_TRUE(is_wrapper_file("/home/me/mylib/put.c"));
  EXPECT_FALSE(is_wrapper_file("/home/me/app/put.c"));
  bspcheck::rt::set_wrapper_files("");
}

// Two calling lines, one after the other on every process, each putting out of bounds (8 and 12
// bytes into 4, so that the findings tell them apart): every finding names its own line, though
// the second line's calls find the first line's stack known at the same wrapper call site.
TEST(CallStacks, FindingsThroughAWrapperNameTheCallingLine) {
  int line8 = 0, line12 = 0;
  std::vector<int> area(2, 0);
  const auto r = unit::run(2, 5, [&] {
    bsp_begin(2);
    bsp_push_reg(&area[static_cast<std::size_t>(bsp_pid())], sizeof(int));
    bsp_sync();
    const long long big[2] = {1, 2};
    const int other = 1 - bsp_pid();
    int* mine = &area[static_cast<std::size_t>(bsp_pid())];
    for (int i = 0; i < 3; ++i) {
      line8 = __LINE__ + 1;
      wrapped_put(other, big, mine, 0, 8);
    }
    for (int i = 0; i < 3; ++i) {
      line12 = __LINE__ + 1;
      wrapped_put(other, big, mine, 0, 12);
    }
    bsp_sync();
    bsp_end();
  });
  ASSERT_GE(r.count("bounds-put"), 4u) << r.summary();
  bool seen8 = false, seen12 = false;
  for (const bspcheck::Finding& f : r.findings) {
    if (f.rule != "bounds-put") continue;
    ASSERT_FALSE(f.locations.empty());
    const bspcheck::Location& l = f.locations.front();
    const bool twelve = f.message.find("0..12") != std::string::npos;
    EXPECT_TRUE(ends_with(l.file, "test_call_stacks.cpp")) << l.file;
    EXPECT_EQ(l.line, twelve ? line12 : line8) << f.message << "\n" << r.summary();
    ASSERT_FALSE(l.stack.empty()) << r.summary();
    ASSERT_GE(l.stack.size(), 2u) << r.summary();
    EXPECT_TRUE(ends_with(l.stack[0].file, "wrapped_calls.hpp")) << l.stack[0].file;
    EXPECT_NE(l.stack[0].function.find("wrapped_put"), std::string::npos) << l.stack[0].function;
    EXPECT_EQ(l.stack[1].line, l.line);
    (twelve ? seen12 : seen8) = true;
  }
  EXPECT_TRUE(seen8 && seen12) << r.summary();
}

// A direct call has no stack.
TEST(CallStacks, ADirectCallHasNoStack) {
  std::vector<int> area(2, 0);
  const auto r = unit::run(2, 5, [&] {
    bsp_begin(2);
    bsp_push_reg(&area[static_cast<std::size_t>(bsp_pid())], sizeof(int));
    bsp_sync();
    const long long big = 1;
    bsp_put(1 - bsp_pid(), &big, &area[static_cast<std::size_t>(bsp_pid())], 0, sizeof big);
    bsp_sync();
    bsp_end();
  });
  ASSERT_GE(r.count("bounds-put"), 1u) << r.summary();
  for (const bspcheck::Finding& f : r.findings)
    for (const bspcheck::Location& l : f.locations) EXPECT_TRUE(l.stack.empty()) << l.file << ":" << l.line;
}
