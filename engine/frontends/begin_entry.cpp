// begin_entry.cpp: bsp_begin's entry point, which returns to the program with zeros below the
// caller's frame when the caller is process 0 on the main thread's stack.
//
// Why: what lies below main's frame when bsp_begin returns is what ran there before. In a plain
// run (`run --seed N`, `--no-fork-server`, a reproduce command) that is the dynamic loader's
// frames and bsp_begin's own; in a worker of the fork server, the server's. A program that reads
// an uninitialised local of a function it calls after bsp_begin (a bug bsp-check should make
// reproducible, not hide) then read different bytes in the two modes, and a failure found by
// `run --seeds` did not always fail again under its reproduce command. Cleared, both read zeros.
// Processes 1..p-1 start on fresh fiber stacks, zeros below main's frame but for what their own
// bsp_begin left there: a few hundred bytes of return addresses and saved registers, addresses
// that differ between runs. Those bytes are cleared the same way.
//
// bsp_begin's own frame is among those bytes (the registers of main it saves, its return address),
// so the last part is cleared here, after the body (bspcheck_begin_from, c_api.cpp) has returned:
// a few instructions that use no stack but the return address, on x86-64; elsewhere bsp_begin is
// the body's plain caller and its own frame stays as it was.
#include <cstddef>
#include <cstdint>

extern "C" std::size_t bspcheck_begin_from(int maxprocs, const void* return_address, std::uintptr_t return_slot);

#if defined(__x86_64__) && defined(__ELF__)
// bspcheck_begin_from gets the call site (the return address) and where it lies, and returns how
// many bytes just below that to clear (for process 0 of a program it has cleared the pages below
// those itself; for a fiber, those bytes are all it wrote). Its own frames lie within those
// bytes, so they are cleared after it returns, with `rep stosb`, which uses no stack.
asm(R"(
  .text
  .globl bsp_begin
  .type bsp_begin, @function
bsp_begin:
  .cfi_startproc
  mov (%rsp), %rsi
  mov %rsp, %rdx
  sub $8, %rsp
  .cfi_adjust_cfa_offset 8
  call bspcheck_begin_from
  add $8, %rsp
  .cfi_adjust_cfa_offset -8
  mov %rax, %rcx
  mov %rsp, %rdi
  sub %rax, %rdi
  xor %eax, %eax
  rep stosb
  ret
  .cfi_endproc
  .size bsp_begin, .-bsp_begin
)");
#else
extern "C" void bsp_begin(int maxprocs) { bspcheck_begin_from(maxprocs, __builtin_return_address(0), 0); }
#endif
