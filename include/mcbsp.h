/* mcbsp.h: MulticoreBSP for C 2.x, served by bsp-check (bspcc --dialect=mcbsp, or include this
 * header directly; CMake: BSPCheck::mcbsp). See docs/dialects.md.
 *
 * MulticoreBSP counts processes with unsigned int and bytes with size_t. The engine beneath is the
 * classic one with int sizes, so one libbspcheck.so serves both interfaces: the declarations
 * below keep MulticoreBSP's names and types for the program but bind them, with asm labels, to
 * the symbols bspcheck_mcbsp_* (engine/frontends/mcbsp_api.cpp), which check that every size fits the
 * engine and then call the classic primitives. Like bsp.h, function-like macros record each
 * call's __FILE__ and __LINE__ (define BSPCHECK_NO_SITE_MACROS to get bare declarations).
 *
 * With MCBSP_COMPATIBILITY_MODE defined, MulticoreBSP offers the classic int interface instead;
 * so does this header, by including the classic bsp.h. */
#ifndef BSPCHECK_MCBSP_H
#define BSPCHECK_MCBSP_H

/* What the original pulls in, so that programs using size_t, SIZE_MAX or va_list build as they
 * do there. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef MCBSP_COMPATIBILITY_MODE
/* Quoted: the classic bsp.h next to this file, also under --dialect=mcbsp (where <bsp.h> is
 * MulticoreBSP's, which is this file). */
#include "bsp.h"
#define MCBSP_PROCESSOR_INDEX_DATATYPE int
#define MCBSP_NUMMSG_TYPE int
#define MCBSP_BYTESIZE_TYPE int
#define bsp_hpsend bsp_send /* MulticoreBSP's unbuffered send; bsp-check buffers it (docs/dialects.md) */
#ifdef __cplusplus
extern "C" {
#endif
/* bsp_direct_get with the classic types: reads the remote registered memory at once. */
void bspcheck_mcbsp_direct_get_int(int pid, const void *source, int offset, void *destination, int size);
/* bsp_begin with the classic type. The processes are still MulticoreBSP's threads, which share
 * the program's globals: this begin says so, where the classic one would make them private. */
void bspcheck_mcbsp_begin_int(int maxprocs);
#ifdef __cplusplus
}
#endif
#undef bsp_begin
#ifdef BSPCHECK_NO_SITE_MACROS
#define bsp_direct_get bspcheck_mcbsp_direct_get_int
#define bsp_begin bspcheck_mcbsp_begin_int
#else
#define bsp_direct_get(...) (bspcheck_set_site(__FILE__, __LINE__), bspcheck_mcbsp_direct_get_int(__VA_ARGS__))
#define bsp_begin(...) (bspcheck_set_site(__FILE__, __LINE__), bspcheck_mcbsp_begin_int(__VA_ARGS__))
#endif
#else

#if defined(BSPCHECK_BSP_H) && !defined(BSPCHECK_MCBSP_IMPLEMENTATION)
#error \
    "bsp-check: MulticoreBSP's <mcbsp.h> after the classic <bsp.h>: build a MulticoreBSP for C program with bspcc --dialect=mcbsp (CMake: BSPCheck::mcbsp)"
#endif

#include <mcbsp-affinity.h>

/* Tells the classic bsp.h that MulticoreBSP's own declarations of its names are in this file. */
#define BSPCHECK_MCBSP_INTERFACE

#ifdef __cplusplus
extern "C" {
#endif

/* MulticoreBSP's types. The bsp_* type names are left out of the runtime's own translation
 * unit, where the classic bsp.h has declared them as int. */
typedef unsigned int bspcheck_mcbsp_pid_t;
typedef unsigned int bspcheck_mcbsp_nprocs_t;
typedef size_t bspcheck_mcbsp_size_t;
#ifndef BSPCHECK_MCBSP_IMPLEMENTATION
typedef bspcheck_mcbsp_pid_t bsp_pid_t;
typedef bspcheck_mcbsp_nprocs_t bsp_nprocs_t;
typedef bspcheck_mcbsp_size_t bsp_size_t;
#endif
/* MulticoreBSP 1.x spelled the types as macros; some 2.x programs still use them. */
#define MCBSP_PROCESSOR_INDEX_DATATYPE bspcheck_mcbsp_pid_t
#define MCBSP_NUMMSG_TYPE bspcheck_mcbsp_nprocs_t
#define MCBSP_BYTESIZE_TYPE bspcheck_mcbsp_size_t

/* BSPCHECK_MCBSP_FN_(put) declares bsp_put bound to the symbol bspcheck_mcbsp_put for programs,
 * and bspcheck_mcbsp_put itself for the runtime that defines it. */
#define BSPCHECK_MCBSP_STR2_(x) #x
#define BSPCHECK_MCBSP_STR_(x) BSPCHECK_MCBSP_STR2_(x)
#ifdef BSPCHECK_MCBSP_IMPLEMENTATION
#define BSPCHECK_MCBSP_NAME_(name) bspcheck_mcbsp_##name
#define BSPCHECK_MCBSP_LABEL_(name)
#else
#define BSPCHECK_MCBSP_NAME_(name) bsp_##name
#define BSPCHECK_MCBSP_LABEL_(name) __asm__(BSPCHECK_MCBSP_STR_(__USER_LABEL_PREFIX__) "bspcheck_mcbsp_" #name)
#endif

/* SPMD framework */
void BSPCHECK_MCBSP_NAME_(begin)(bspcheck_mcbsp_pid_t P) BSPCHECK_MCBSP_LABEL_(begin);
void BSPCHECK_MCBSP_NAME_(end)(void) BSPCHECK_MCBSP_LABEL_(end);
void BSPCHECK_MCBSP_NAME_(init)(void (*spmd)(void), int argc, char **argv) BSPCHECK_MCBSP_LABEL_(init);
void BSPCHECK_MCBSP_NAME_(abort)(const char *error_message, ...) BSPCHECK_MCBSP_LABEL_(abort)
    __attribute__((format(printf, 1, 2), noreturn));
void BSPCHECK_MCBSP_NAME_(vabort)(const char *error_message, va_list args) BSPCHECK_MCBSP_LABEL_(vabort)
    __attribute__((format(printf, 1, 0), noreturn));
bspcheck_mcbsp_pid_t BSPCHECK_MCBSP_NAME_(nprocs)(void) BSPCHECK_MCBSP_LABEL_(nprocs);
bspcheck_mcbsp_pid_t BSPCHECK_MCBSP_NAME_(pid)(void) BSPCHECK_MCBSP_LABEL_(pid);
double BSPCHECK_MCBSP_NAME_(time)(void) BSPCHECK_MCBSP_LABEL_(time);
void BSPCHECK_MCBSP_NAME_(sync)(void) BSPCHECK_MCBSP_LABEL_(sync);

/* Direct remote memory access */
void BSPCHECK_MCBSP_NAME_(push_reg)(const void *address, bspcheck_mcbsp_size_t size) BSPCHECK_MCBSP_LABEL_(push_reg);
void BSPCHECK_MCBSP_NAME_(pop_reg)(const void *address) BSPCHECK_MCBSP_LABEL_(pop_reg);
void BSPCHECK_MCBSP_NAME_(put)(bspcheck_mcbsp_pid_t pid, const void *source, void *destination,
                               bspcheck_mcbsp_size_t offset, bspcheck_mcbsp_size_t size) BSPCHECK_MCBSP_LABEL_(put);
void BSPCHECK_MCBSP_NAME_(hpput)(bspcheck_mcbsp_pid_t pid, const void *source, void *destination,
                                 bspcheck_mcbsp_size_t offset, bspcheck_mcbsp_size_t size) BSPCHECK_MCBSP_LABEL_(hpput);
void BSPCHECK_MCBSP_NAME_(get)(bspcheck_mcbsp_pid_t pid, const void *source, bspcheck_mcbsp_size_t offset,
                               void *destination, bspcheck_mcbsp_size_t size) BSPCHECK_MCBSP_LABEL_(get);
void BSPCHECK_MCBSP_NAME_(hpget)(bspcheck_mcbsp_pid_t pid, const void *source, bspcheck_mcbsp_size_t offset,
                                 void *destination, bspcheck_mcbsp_size_t size) BSPCHECK_MCBSP_LABEL_(hpget);

/* Bulk synchronous message passing */
void BSPCHECK_MCBSP_NAME_(set_tagsize)(bspcheck_mcbsp_size_t *size) BSPCHECK_MCBSP_LABEL_(set_tagsize);
void BSPCHECK_MCBSP_NAME_(send)(bspcheck_mcbsp_pid_t pid, const void *tag, const void *payload,
                                bspcheck_mcbsp_size_t size) BSPCHECK_MCBSP_LABEL_(send);
void BSPCHECK_MCBSP_NAME_(hpsend)(bspcheck_mcbsp_pid_t pid, const void *tag, const void *payload,
                                  bspcheck_mcbsp_size_t size) BSPCHECK_MCBSP_LABEL_(hpsend);
/* accumulated_size may be NULL (MulticoreBSP documents it as optional); packets may not. */
void BSPCHECK_MCBSP_NAME_(qsize)(bspcheck_mcbsp_nprocs_t *packets, bspcheck_mcbsp_size_t *accumulated_size)
    BSPCHECK_MCBSP_LABEL_(qsize);
/* status becomes SIZE_MAX when the queue is empty. */
void BSPCHECK_MCBSP_NAME_(get_tag)(bspcheck_mcbsp_size_t *status, void *tag) BSPCHECK_MCBSP_LABEL_(get_tag);
void BSPCHECK_MCBSP_NAME_(move)(void *payload, bspcheck_mcbsp_size_t max_copy_size) BSPCHECK_MCBSP_LABEL_(move);
/* Returns the payload size, or SIZE_MAX when the queue is empty. */
bspcheck_mcbsp_size_t BSPCHECK_MCBSP_NAME_(hpmove)(void **p_tag, void **p_payload) BSPCHECK_MCBSP_LABEL_(hpmove);

/* bsp_direct_get reads the remote registered memory at once, wherever its owner is in the
 * superstep (docs/dialects.md); a source changed later in the same superstep is hp-src-modified. */
void BSPCHECK_MCBSP_NAME_(direct_get)(bspcheck_mcbsp_pid_t pid, const void *source, bspcheck_mcbsp_size_t offset,
                                      void *destination, bspcheck_mcbsp_size_t size) BSPCHECK_MCBSP_LABEL_(direct_get);

/* The source location of the next call (defined with the classic interface). */
void bspcheck_set_site(const char *file, int line);

#ifdef __cplusplus
}
#endif

#if !defined(BSPCHECK_NO_SITE_MACROS) && !defined(BSPCHECK_MCBSP_IMPLEMENTATION)
#ifndef __cplusplus
/* The mirror image of the classic bsp.h's guard: C would convert an int * to size_t * behind a
 * warning and the call would write 8 bytes into a 4-byte variable. int * is accepted for the
 * message count, which MulticoreBSP itself fills correctly (same size, pointer-sign warning only). */
bspcheck_mcbsp_size_t *bspcheck_mcbsp_get_tag_status(void)
    __attribute__((error("bsp-check: under --dialect=mcbsp bsp_get_tag's status is bsp_size_t * (size_t); a classic "
                         "BSPlib program (int status) builds without --dialect")));
bspcheck_mcbsp_size_t *bspcheck_mcbsp_qsize_size(void)
    __attribute__((error("bsp-check: under --dialect=mcbsp bsp_qsize's accumulated size is bsp_size_t * (size_t); a "
                         "classic BSPlib program (int sizes) builds without --dialect")));
bspcheck_mcbsp_nprocs_t *bspcheck_mcbsp_qsize_packets(void) __attribute__((
    error("bsp-check: under --dialect=mcbsp bsp_qsize's packet count is bsp_nprocs_t * (unsigned int)")));
bspcheck_mcbsp_size_t *bspcheck_mcbsp_tagsize(void)
    __attribute__((error("bsp-check: under --dialect=mcbsp bsp_set_tagsize takes bsp_size_t * (size_t); a classic "
                         "BSPlib program (int tag size) builds without --dialect")));
#define BSPCHECK_MCBSP_SIZE_RESULT_(ptr, wrong_type) \
  _Generic((ptr), bspcheck_mcbsp_size_t * : (ptr), void * : (ptr), int : (ptr), default : wrong_type())
#define BSPCHECK_MCBSP_COUNT_RESULT_(ptr, wrong_type) \
  _Generic((ptr), bspcheck_mcbsp_nprocs_t *: (ptr), int *: (bspcheck_mcbsp_nprocs_t *)(ptr), void *: (ptr), \
           int: (ptr), default: wrong_type())
#define BSPCHECK_MCBSP_GET_TAG_ARGS_(status, tag) \
  BSPCHECK_MCBSP_SIZE_RESULT_(status, bspcheck_mcbsp_get_tag_status), tag
#define BSPCHECK_MCBSP_QSIZE_ARGS_(packets, accumulated_size)          \
  BSPCHECK_MCBSP_COUNT_RESULT_(packets, bspcheck_mcbsp_qsize_packets), \
      BSPCHECK_MCBSP_SIZE_RESULT_(accumulated_size, bspcheck_mcbsp_qsize_size)
#define BSPCHECK_MCBSP_SET_TAGSIZE_ARGS_(size) BSPCHECK_MCBSP_SIZE_RESULT_(size, bspcheck_mcbsp_tagsize)
#else
#define BSPCHECK_MCBSP_GET_TAG_ARGS_(...) __VA_ARGS__
#define BSPCHECK_MCBSP_QSIZE_ARGS_(...) __VA_ARGS__
#define BSPCHECK_MCBSP_SET_TAGSIZE_ARGS_(...) __VA_ARGS__
#endif

#define BSPCHECK_MCBSP_AT_ (bspcheck_set_site(__FILE__, __LINE__))
#define bsp_begin(...) (BSPCHECK_MCBSP_AT_, bsp_begin(__VA_ARGS__))
#define bsp_end(...) (BSPCHECK_MCBSP_AT_, bsp_end(__VA_ARGS__))
#define bsp_init(...) (BSPCHECK_MCBSP_AT_, bsp_init(__VA_ARGS__))
#define bsp_abort(...) (BSPCHECK_MCBSP_AT_, bsp_abort(__VA_ARGS__))
#define bsp_vabort(...) (BSPCHECK_MCBSP_AT_, bsp_vabort(__VA_ARGS__))
#define bsp_sync(...) (BSPCHECK_MCBSP_AT_, bsp_sync(__VA_ARGS__))
#define bsp_push_reg(...) (BSPCHECK_MCBSP_AT_, bsp_push_reg(__VA_ARGS__))
#define bsp_pop_reg(...) (BSPCHECK_MCBSP_AT_, bsp_pop_reg(__VA_ARGS__))
#define bsp_put(...) (BSPCHECK_MCBSP_AT_, bsp_put(__VA_ARGS__))
#define bsp_hpput(...) (BSPCHECK_MCBSP_AT_, bsp_hpput(__VA_ARGS__))
#define bsp_get(...) (BSPCHECK_MCBSP_AT_, bsp_get(__VA_ARGS__))
#define bsp_hpget(...) (BSPCHECK_MCBSP_AT_, bsp_hpget(__VA_ARGS__))
#define bsp_direct_get(...) (BSPCHECK_MCBSP_AT_, bsp_direct_get(__VA_ARGS__))
#define bsp_set_tagsize(...) (BSPCHECK_MCBSP_AT_, bsp_set_tagsize(BSPCHECK_MCBSP_SET_TAGSIZE_ARGS_(__VA_ARGS__)))
#define bsp_send(...) (BSPCHECK_MCBSP_AT_, bsp_send(__VA_ARGS__))
#define bsp_hpsend(...) (BSPCHECK_MCBSP_AT_, bsp_hpsend(__VA_ARGS__))
#define bsp_qsize(...) (BSPCHECK_MCBSP_AT_, bsp_qsize(BSPCHECK_MCBSP_QSIZE_ARGS_(__VA_ARGS__)))
#define bsp_get_tag(...) (BSPCHECK_MCBSP_AT_, bsp_get_tag(BSPCHECK_MCBSP_GET_TAG_ARGS_(__VA_ARGS__)))
#define bsp_move(...) (BSPCHECK_MCBSP_AT_, bsp_move(__VA_ARGS__))
#define bsp_hpmove(...) (BSPCHECK_MCBSP_AT_, bsp_hpmove(__VA_ARGS__))
/* bsp_pid and bsp_time carry their call site as arguments (as in bsp.h), cast to MulticoreBSP's
 * types. bsp_nprocs stays the MulticoreBSP function: mcbsp_set_maximum_threads caps it. */
#ifdef __cplusplus
extern "C" {
#endif
int bspcheck_pid_at(const char *file, int line);
double bspcheck_time_at(const char *file, int line);
#ifdef __cplusplus
}
#endif
#define bsp_pid() ((bsp_pid_t)bspcheck_pid_at(__FILE__, __LINE__))
#define bsp_time() bspcheck_time_at(__FILE__, __LINE__)
#endif

#endif /* MCBSP_COMPATIBILITY_MODE */

#endif /* BSPCHECK_MCBSP_H */
