// fcontext_jump.hpp: Boost.Context's jump_fcontext, called so that the CPU's return predictions
// survive the switch.
//
// Why: jump_fcontext (x86-64) leaves through `jmp *%r8`, not `ret`. A plain `call` into it pushes
// a return-stack-buffer (RSB) entry that no `ret` ever consumes, so in the resumed context every
// `ret` up the call chain is predicted one frame off and mispredicts: about 6 ns per frame here.
// A BSPlib call that switches returns through five or so frames (switch → switch point → World
// method → C entry → program), which made a switch cost 30 ns instead of 6.
//
// How: on x86-64 the call is made by hand: push the return address and `jmp` into jump_fcontext,
// so no RSB entry is created. The resumed context then returns along the RSB entries of the
// context that switched away; BSP processes run the same code, so those are usually exactly
// its own return addresses, and its `ret`s are predicted.
//
// The asm is an ordinary SysV call of jump_fcontext(to, data) apart from the missing `call`: it
// clobbers everything the ABI lets a callee clobber. It first steps over the 128-byte red zone,
// which the compiler may use in a function it thinks makes no calls. Elsewhere it is a plain call
// of jump_fcontext: on other architectures, and in builds with Intel CET (-fcf-protection),
// whose shadow stacks forbid a `ret` without its `call` and whose indirect-branch tracking wants
// an `endbr64` where the jump resumes (Boost 1.74's fcontext supports neither anyway).
#pragma once

#include <boost/context/detail/fcontext.hpp>

namespace bspcheck::rt {

#if defined(__x86_64__) && defined(__ELF__) && !defined(__CET__)
#define BSPCHECK_BALANCED_JUMP 1
#else
#define BSPCHECK_BALANCED_JUMP 0
#endif

inline boost::context::detail::transfer_t fcontext_jump(boost::context::detail::fcontext_t to, void* data) {
#if BSPCHECK_BALANCED_JUMP
  register void* rdi asm("rdi") = to;
  register void* rsi asm("rsi") = data;
  void* fctx;
  void* passed;
  asm volatile(
      "leaq -128(%%rsp), %%rsp\n\t"  // step over the red zone
      "leaq 1f(%%rip), %%rax\n\t"
      "pushq %%rax\n\t"  // the return address jump_fcontext saves for this context
      "jmp *jump_fcontext@GOTPCREL(%%rip)\n"
      "1:\n\t"  // resumed here, with rsp as it was after the push
      "leaq 128(%%rsp), %%rsp"
      : "=a"(fctx), "=d"(passed), "+r"(rdi), "+r"(rsi)
      :
      : "rcx", "r8", "r9", "r10", "r11", "memory", "cc",  //
        "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",
        "xmm13", "xmm14", "xmm15", "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)", "mm0", "mm1",
        "mm2", "mm3", "mm4", "mm5", "mm6", "mm7"
#if defined(__AVX512F__)
        ,
        "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27",
        "xmm28", "xmm29", "xmm30", "xmm31", "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"
#endif
  );
  return {fctx, passed};
#else
  return boost::context::detail::jump_fcontext(to, data);
#endif
}

}  // namespace bspcheck::rt
