/* bsp.h: the classic BSPlib C interface (Hill, McColl et al., table 2), served by bsp-check.
 *
 * All 20 primitives keep their classic int signatures, so programs written for BSPonMPI, the
 * Oxford BSP toolset or BSPedupack compile unchanged. Each primitive is also wrapped by a
 * function-like macro that records the call's __FILE__ and __LINE__ just before the call, so
 * that every diagnostic can name the source line. Taking a primitive's address (&bsp_put) still
 * yields the real function: a function-like macro only expands when followed by '('.
 * Define BSPCHECK_NO_SITE_MACROS before including this header to get the bare declarations.
 *
 * It also declares what the Oxford BSP toolset's bsp.h adds to the primitives (bsp_dtime, the
 * machine parameters bsp_s/l/g/nhalf, the older names bsp_pushregister, bsp_set_tag_size, ...),
 * since its programs use them with this header alone; docs/dialects.md lists them. */
#ifndef BSPCHECK_BSP_H
#define BSPCHECK_BSP_H

/* The Oxford BSP toolset's bsp.h includes <stdio.h>, and its programs print to stdout and call
 * fflush(stdout) with no include of their own. */
#include <stdio.h>

/* MulticoreBSP's mcbsp.h declares the same names with size_t types: the two cannot meet in one
 * file (engine/frontends/mcbsp_api.cpp, which serves both, defines BSPCHECK_MCBSP_IMPLEMENTATION). */
#if defined(BSPCHECK_MCBSP_INTERFACE) && !defined(BSPCHECK_MCBSP_IMPLEMENTATION)
#error \
    "bsp-check: the classic <bsp.h> after MulticoreBSP's <mcbsp.h>: build a MulticoreBSP for C program with bspcc --dialect=mcbsp (CMake: BSPCheck::mcbsp)"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The BSPlib 1.x type names, as BSPonMPI 1.x declares them (int, like every count and size of
 * the classic interface); bsp_nprocs_t as MulticoreBSP and LPF name it. Programs that merely
 * name these types build unchanged. */
typedef int bsp_pid_t;
typedef int bsp_size_t;
typedef int bsp_nprocs_t;

/* SPMD framework */
void bsp_begin(int maxprocs);
void bsp_end(void);
void bsp_init(void (*spmd_part)(void), int argc, char *argv[]);
void bsp_abort(const char *format, ...) __attribute__((format(printf, 1, 2), noreturn));
int bsp_nprocs(void);
int bsp_pid(void);
double bsp_time(void);
void bsp_sync(void);

/* Direct remote memory access */
void bsp_push_reg(const void *ident, int size);
void bsp_pop_reg(const void *ident);
void bsp_put(int pid, const void *src, void *dst, int offset, int nbytes);
void bsp_hpput(int pid, const void *src, void *dst, int offset, int nbytes);
void bsp_get(int pid, const void *src, int offset, void *dst, int nbytes);
void bsp_hpget(int pid, const void *src, int offset, void *dst, int nbytes);

/* Bulk synchronous message passing */
void bsp_set_tagsize(int *tag_nbytes);
void bsp_send(int pid, const void *tag, const void *payload, int payload_nbytes);
void bsp_qsize(int *nmessages, int *accum_nbytes);
void bsp_get_tag(int *status, void *tag);
void bsp_move(void *payload, int reception_nbytes);
int bsp_hpmove(void **tag_ptr, void **payload_ptr);

/* The Oxford BSP toolset's additions (its bsp.h and bsp_level1.h declare them; engine/frontends/oxford_api.cpp).
 * bsp_dtime: seconds since this process's previous bsp_dtime (the first call: since bsp_begin);
 * bsp_cputime: the process's time since bsp_begin, which is bsp_time's (the toolset, too, returns
 * bsp_time where it has no CPU timer: bsp-check's processes share one OS thread).
 * bsp_s, bsp_l, bsp_g, bsp_nhalf: the machine of bsp-check's virtual clock, in the toolset's units
 * (s in flop/s; l in flops; g in flops per 32-bit word; nhalf in words): 1e9, 10000, 4 and 250. */
double bsp_dtime(void);
double bsp_cputime(void);
double bsp_s(void);
double bsp_l(void);
double bsp_g(void);
int bsp_nhalf(void);

/* Richard Miller's Oxford BSP library, which the toolset also serves (bspstart, bspstore, ...),
 * addresses any static variable of another process without registering it; the toolset makes
 * that work by registering a fake area of INT_MAX/2 bytes. The engine checks every access against
 * real registrations, so these are a compile error naming the replacement instead (with
 * compilers that have GCC's error attribute; elsewhere they are merely undeclared).
 * bspsstep and bspsstep_end (the superstep brackets) are served, below. */
#if defined(__has_attribute)
#if __has_attribute(error)
void bspstart(int argc, char **argv, int maxprocs, int *nprocs, int *mypid) __attribute__((
    error("bsp-check: Miller's bspstart (Oxford BSP library) is not supported; use bsp_begin, see docs/dialects.md")));
void bspfinish(void) __attribute__((
    error("bsp-check: Miller's bspfinish (Oxford BSP library) is not supported; use bsp_end, see docs/dialects.md")));
void bspstore(int pid, void *src, void *dst, int nbytes)
    __attribute__((error("bsp-check: Miller's bspstore (Oxford BSP library) is not supported; register dst with "
                         "bsp_push_reg and use bsp_put, see docs/dialects.md")));
void bspfetch(int pid, void *src, void *dst, int nbytes)
    __attribute__((error("bsp-check: Miller's bspfetch (Oxford BSP library) is not supported; register src with "
                         "bsp_push_reg and use bsp_get, see docs/dialects.md")));
#endif
#endif

/* bsp-check extension: the source location of the next BSPlib call. The macros below set it;
 * the runtime reads and clears it at the call. */
void bspcheck_set_site(const char *file, int line);
/* bsp-check extension: bsp_nprocs, bsp_pid and bsp_time with their source location. */
int bspcheck_nprocs_at(const char *file, int line);
int bspcheck_pid_at(const char *file, int line);
double bspcheck_time_at(const char *file, int line);
/* bsp-check extension: the toolset's bsp_dtime and bsp_cputime with their source location. */
double bspcheck_dtime_at(const char *file, int line);
double bspcheck_cputime_at(const char *file, int line);

#ifdef __cplusplus
}
#endif

#if !defined(BSPCHECK_NO_SITE_MACROS) && !defined(__cplusplus)
/* C converts any object pointer to int * behind a mere warning, so a MulticoreBSP 2 program's
 * `size_t status; bsp_get_tag(&status, tag)` would build and leave half of status unwritten.
 * The result pointers of bsp_get_tag, bsp_qsize and bsp_set_tagsize therefore go through a
 * _Generic that lets int * (and NULL) through and turns any other pointer into a call of a
 * function marked with GCC's and Clang's error attribute: a compile error with this message.
 * (C++ never converts between these pointer types, so it needs no such guard.) */
int *bspcheck_classic_get_tag_status(void)
    __attribute__((error("bsp-check: bsp_get_tag's status is int * in the classic BSPlib interface; a MulticoreBSP for "
                         "C program (size_t status) builds with bspcc --dialect=mcbsp")));
int *bspcheck_classic_qsize_count(void)
    __attribute__((error("bsp-check: bsp_qsize takes int * counts in the classic BSPlib interface; a MulticoreBSP for "
                         "C program (bsp_nprocs_t/size_t counts) builds with bspcc --dialect=mcbsp")));
int *bspcheck_classic_tagsize(void)
    __attribute__((error("bsp-check: bsp_set_tagsize takes int * in the classic BSPlib interface; a MulticoreBSP for C "
                         "program (size_t tag size) builds with bspcc --dialect=mcbsp")));
#define BSPCHECK_INT_RESULT_(ptr, wrong_type) \
  _Generic((ptr), int * : (ptr), void * : (ptr), int : (ptr), default : wrong_type())
#define BSPCHECK_GET_TAG_ARGS_(status, tag) BSPCHECK_INT_RESULT_(status, bspcheck_classic_get_tag_status), tag
#define BSPCHECK_QSIZE_ARGS_(nmessages, accum_nbytes)            \
  BSPCHECK_INT_RESULT_(nmessages, bspcheck_classic_qsize_count), \
      BSPCHECK_INT_RESULT_(accum_nbytes, bspcheck_classic_qsize_count)
#define BSPCHECK_SET_TAGSIZE_ARGS_(tag_nbytes) BSPCHECK_INT_RESULT_(tag_nbytes, bspcheck_classic_tagsize)
#else
#define BSPCHECK_GET_TAG_ARGS_(...) __VA_ARGS__
#define BSPCHECK_QSIZE_ARGS_(...) __VA_ARGS__
#define BSPCHECK_SET_TAGSIZE_ARGS_(...) __VA_ARGS__
#endif

/* The toolset's other names for primitives (its bsp.h defines them as these macros too), and
 * Miller's superstep brackets: bspsstep marks a superstep's start and does nothing, bspsstep_end
 * ends it with a barrier. Object-like where the toolset's take the same arguments, so that they
 * rescan into the site macros below (or the bare functions without them). */
#define bsp_pushregister bsp_push_reg
#define bsp_popregister bsp_pop_reg
#define bsp_set_tag_size bsp_set_tagsize
#define bsp_bsmp_info bsp_qsize
#define bspsstep(sstepid) ((void)(sstepid))
#define bspsstep_end(sstepid) ((void)(sstepid), bsp_sync())

#ifndef BSPCHECK_NO_SITE_MACROS
#define BSPCHECK_AT_ (bspcheck_set_site(__FILE__, __LINE__))
#define bsp_begin(...) (BSPCHECK_AT_, bsp_begin(__VA_ARGS__))
#define bsp_end(...) (BSPCHECK_AT_, bsp_end(__VA_ARGS__))
#define bsp_init(...) (BSPCHECK_AT_, bsp_init(__VA_ARGS__))
#define bsp_abort(...) (BSPCHECK_AT_, bsp_abort(__VA_ARGS__))
/* The three queries take their site as arguments instead of through bspcheck_set_site: they are
 * so often nested in another primitive's arguments (bsp_put((bsp_pid() + 1) % bsp_nprocs(), ...))
 * that consuming the pending site would take it from the enclosing call. */
#define bsp_nprocs() bspcheck_nprocs_at(__FILE__, __LINE__)
#define bsp_pid() bspcheck_pid_at(__FILE__, __LINE__)
#define bsp_time() bspcheck_time_at(__FILE__, __LINE__)
#define bsp_dtime() bspcheck_dtime_at(__FILE__, __LINE__)
#define bsp_cputime() bspcheck_cputime_at(__FILE__, __LINE__)
#define bsp_sync(...) (BSPCHECK_AT_, bsp_sync(__VA_ARGS__))
#define bsp_push_reg(...) (BSPCHECK_AT_, bsp_push_reg(__VA_ARGS__))
#define bsp_pop_reg(...) (BSPCHECK_AT_, bsp_pop_reg(__VA_ARGS__))
#define bsp_put(...) (BSPCHECK_AT_, bsp_put(__VA_ARGS__))
#define bsp_hpput(...) (BSPCHECK_AT_, bsp_hpput(__VA_ARGS__))
#define bsp_get(...) (BSPCHECK_AT_, bsp_get(__VA_ARGS__))
#define bsp_hpget(...) (BSPCHECK_AT_, bsp_hpget(__VA_ARGS__))
#define bsp_set_tagsize(...) (BSPCHECK_AT_, bsp_set_tagsize(BSPCHECK_SET_TAGSIZE_ARGS_(__VA_ARGS__)))
#define bsp_send(...) (BSPCHECK_AT_, bsp_send(__VA_ARGS__))
#define bsp_qsize(...) (BSPCHECK_AT_, bsp_qsize(BSPCHECK_QSIZE_ARGS_(__VA_ARGS__)))
#define bsp_get_tag(...) (BSPCHECK_AT_, bsp_get_tag(BSPCHECK_GET_TAG_ARGS_(__VA_ARGS__)))
#define bsp_move(...) (BSPCHECK_AT_, bsp_move(__VA_ARGS__))
#define bsp_hpmove(...) (BSPCHECK_AT_, bsp_hpmove(__VA_ARGS__))
#endif

#endif /* BSPCHECK_BSP_H */
