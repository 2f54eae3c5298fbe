/* mcbsp.hpp: MulticoreBSP for C's C++ wrapper, served by bsp-check (bspcxx --dialect=mcbsp, or
 * BSPCheck::mcbsp). See docs/dialects.md.
 *
 * A program derives from mcbsp::BSP_program, implements spmd() and newInstance(), and calls
 * begin(P): process 0 runs spmd() on the object begin was called on, every other process on an
 * instance of its own from newInstance(), destroyed with destroyInstance() after a final sync
 * (so that no process's fields vanish while another may still read them with bsp_direct_get or
 * an hp primitive); then bsp_end. Written for C++98, as the original.
 *
 * The object is handed to the other processes through a variable of the program's: they share
 * it under this dialect, as MulticoreBSP's threads do (with globals=private they would not). */
#ifndef BSPCHECK_MCBSP_HPP
#define BSPCHECK_MCBSP_HPP

extern "C" {
#include "mcbsp.h"
}

namespace mcbsp {

class BSP_program;

namespace detail {
// The program begin() was called on, for the processes bsp_begin starts.
inline BSP_program*& running_program() {
  static BSP_program* program = 0;
  return program;
}
inline bsp_pid_t& requested_processes() {
  static bsp_pid_t p = 0;
  return p;
}
void spmd_entry();
}  // namespace detail

class BSP_program {
 protected:
  BSP_program() {}
  // The parallel part, run by every process.
  virtual void spmd() = 0;
  // An instance for a process other than 0 (typically `return new FinalType();`).
  virtual BSP_program* newInstance() = 0;
  // Destroys what newInstance() made.
  virtual void destroyInstance(BSP_program* const instance) { delete instance; }

 public:
  // bsp_init and bsp_begin(P), spmd() on every process, bsp_end.
  void begin(const bsp_pid_t P = bsp_nprocs()) {
    detail::running_program() = this;
    detail::requested_processes() = P;
    bsp_init(&detail::spmd_entry, 0, 0);
    detail::spmd_entry();
  }
  virtual ~BSP_program() {}

  friend void detail::spmd_entry();
};

namespace detail {
inline void spmd_entry() {
  BSP_program* const program = running_program();
  bsp_begin(requested_processes());
  if (bsp_pid() == 0) {
    program->spmd();
    bsp_sync();  // the others' final sync
  } else {
    BSP_program* const mine = program->newInstance();
    mine->spmd();
    bsp_sync();  // every process is done with every instance's fields
    program->destroyInstance(mine);
  }
  bsp_end();
}
}  // namespace detail

}  // namespace mcbsp

#endif /* BSPCHECK_MCBSP_HPP */
