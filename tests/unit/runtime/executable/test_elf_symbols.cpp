// runtime/executable/elf_file.hpp and runtime/executable/elf_symbols.hpp, read from this test's own executable: the
// functions and variables it defines are found at the addresses the loader gave them, and a file
// that cannot be read is a file with nothing in it, errno unchanged.
#include <gtest/gtest.h>

#include <elf.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "runtime/executable/elf_file.hpp"
#include "runtime/executable/elf_symbols.hpp"
#include "runtime/executable/executable_symbols.hpp"
#include "runtime/executable/program_image.hpp"

using bspcheck::rt::ElfFile;
using bspcheck::rt::ElfSymbols;
using bspcheck::rt::executable_symbols;
using bspcheck::rt::program_image;

namespace elf_test {
long table[7] = {1, 2, 3, 4, 5, 6, 7};  // .data
int counter;                             // .bss
}  // namespace elf_test

extern "C" __attribute__((noinline, used)) int bspcheck_elf_test_function(int x) { return x * 3 + 1; }

namespace {

std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

}  // namespace

TEST(ElfSymbols, AFunctionIsFoundInTheFullSymbolTable) {
  const ElfFile file("/proc/self/exe");
  ASSERT_FALSE(file.sections().empty());
  const std::uint64_t value = file.function("bspcheck_elf_test_function");
  ASSERT_NE(value, 0u);
  EXPECT_EQ(program_image().load_base + value, address(reinterpret_cast<const void*>(&bspcheck_elf_test_function)));
  EXPECT_EQ(file.function("bspcheck_elf_test_no_such_function"), 0u);
  // A variable is not a function.
  EXPECT_EQ(file.function("_ZN8elf_test5tableE"), 0u);
}

TEST(ElfSymbols, VariablesAreNamedAndMeasured) {
  const auto symbols = executable_symbols();
  EXPECT_EQ(symbols->name(address(&elf_test::table[0])), "elf_test::table");
  EXPECT_EQ(symbols->name(address(&elf_test::table[2])), "elf_test::table+" + std::to_string(2 * sizeof(long)));
  EXPECT_EQ(symbols->name(address(&elf_test::counter)), "elf_test::counter");
  std::uintptr_t lo = 0;
  std::size_t size = 0;
  ASSERT_TRUE(symbols->extent(address(&elf_test::table[6]), lo, size));
  EXPECT_EQ(lo, address(elf_test::table));
  EXPECT_EQ(size, sizeof elf_test::table);
  // One past the end is no longer the table.
  EXPECT_NE(symbols->name(address(elf_test::table + 7)).rfind("elf_test::table", 0), 0u);
  // Both variables lie in the sections that hold the program's own variables.
  for (const void* v : {static_cast<const void*>(elf_test::table), static_cast<const void*>(&elf_test::counter)}) {
    bool inside = false;
    for (const ElfSymbols::Range& r : symbols->variable_sections()) inside |= r.lo <= address(v) && address(v) < r.hi;
    EXPECT_TRUE(inside) << symbols->name(address(v));
  }
  // Read once for the OS process.
  EXPECT_EQ(executable_symbols().get(), symbols.get());
}

TEST(ElfSymbols, AFileThatIsNotElfHasNothingAndLeavesErrnoAlone) {
  const std::string text = testing::TempDir() + "/not_elf.txt";
  std::FILE* f = std::fopen(text.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("this is not an ELF file, though it is long enough to hold an ELF header of 64 bytes.\n", f);
  std::fclose(f);
  for (const std::string& path : {text, std::string("/nonexistent/bsp-check/elf")}) {
    errno = 1234;
    const ElfFile file(path.c_str());
    EXPECT_TRUE(file.sections().empty()) << path;
    EXPECT_EQ(file.function("main"), 0u) << path;
    EXPECT_EQ(errno, 1234) << path;
    const ElfSymbols symbols(path, 0x1000);
    EXPECT_TRUE(symbols.variable_sections().empty()) << path;
    EXPECT_EQ(symbols.name(0x1000), "") << path;
    EXPECT_EQ(errno, 1234) << path;
  }
  std::remove(text.c_str());
}

// A damaged file: this executable's copy with its symbol table's size made enormous. The table is
// refused (it does not fit in the file) instead of read into an enormous allocation.
TEST(ElfSymbols, ASectionLargerThanItsFileIsRefused) {
  std::FILE* in = std::fopen("/proc/self/exe", "rb");
  ASSERT_NE(in, nullptr);
  std::string bytes;
  char buf[1 << 16];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, in)) > 0;) bytes.append(buf, n);
  std::fclose(in);
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  bool patched = false;
  for (int i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh;
    const std::size_t at = eh.e_shoff + static_cast<std::size_t>(i) * sizeof sh;
    std::memcpy(&sh, bytes.data() + at, sizeof sh);
    if (sh.sh_type != SHT_SYMTAB) continue;
    sh.sh_size = std::uint64_t{1} << 60;
    std::memcpy(bytes.data() + at, &sh, sizeof sh);
    patched = true;
  }
  ASSERT_TRUE(patched) << "the test binary has no symbol table";
  const std::string path = testing::TempDir() + "/damaged_elf";
  std::FILE* out = std::fopen(path.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  std::fwrite(bytes.data(), 1, bytes.size(), out);
  std::fclose(out);
  const ElfFile file(path.c_str());
  EXPECT_FALSE(file.sections().empty());
  EXPECT_EQ(file.function("bspcheck_elf_test_function"), 0u);
  const ElfSymbols symbols(path, program_image().load_base);  // (it would throw or abort)
  std::remove(path.c_str());
}
