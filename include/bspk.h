/* bspk.h: BSPk (communicable memory and lazy barriers, shared/seeds/001, Table 1) on bsp-check's
 * deterministic engine. Use it inside bsp_begin/bsp_end: bsp_pid() is the process, bsp_nprocs()
 * the number of processes. docs/bspk.md.
 *
 * Define BSPCHECK_NO_SITE_MACROS before including this header to get the bare declarations. */
#ifndef BSPCHECK_BSPK_H
#define BSPCHECK_BSPK_H

#ifdef __cplusplus
extern "C" {
#endif

/* A comem pointer: one element of a communicable-memory region of some process. A small value
 * type, passed and returned by value; usable as is on every process. */
typedef struct bspk_ptr {
  int owner;  /* the process whose memory holds the region; -1: the null pointer */
  int region; /* the region's number on its owner (with owner -2: a lookup decided later) */
  long elem;  /* the element it points to */
} bspk_ptr;

/* The null comem pointer. In C it is a compound literal, which ISO C does not accept as the
 * initializer of a variable with static storage: initialize those with NULL_COMEM_PTR_INIT
 * (static bspk_ptr p = NULL_COMEM_PTR_INIT;). */
#define NULL_COMEM_PTR_INIT \
  { -1, -1, 0 }
#ifdef __cplusplus
#define NULL_COMEM_PTR (bspk_ptr{-1, -1, 0})
#else
#define NULL_COMEM_PTR ((bspk_ptr){-1, -1, 0})
#endif

int bspk_is_null(bspk_ptr p);
bspk_ptr bspk_malloc(const char *name, int idx, long n, long size);
bspk_ptr bspk_lookup(const char *name, int idx);
void bspk_free(bspk_ptr local);
void *bspk_elemP(bspk_ptr local);
bspk_ptr bspk_incr(bspk_ptr p, long amount);
void bspk_sync(void);
void bspk_expect(int nmsgs);
void bspk_will_send(const int *nmsgs_per_pid);
void bspk_send(int dest, bspk_ptr local, long n);
bspk_ptr bspk_recv(void);
int bspk_sender_id(bspk_ptr local);
void bspk_copy(bspk_ptr dst, bspk_ptr src, long n);

/* Records the call site of the next primitive (the macros below call it). */
void bspcheck_set_site(const char *file, int line);
/* The calls whose results are often another call's arguments, with their site as arguments (the
 * macros below call them), so that a nested call does not take the enclosing call's site. */
bspk_ptr bspcheck_bspk_malloc_at(const char *file, int line, const char *name, int idx, long n, long size);
bspk_ptr bspcheck_bspk_lookup_at(const char *file, int line, const char *name, int idx);
void *bspcheck_bspk_elemP_at(const char *file, int line, bspk_ptr local);
bspk_ptr bspcheck_bspk_incr_at(const char *file, int line, bspk_ptr p, long amount);
bspk_ptr bspcheck_bspk_recv_at(const char *file, int line);
int bspcheck_bspk_sender_id_at(const char *file, int line, bspk_ptr local);

#ifdef __cplusplus
}
#endif

#if !defined(BSPCHECK_NO_SITE_MACROS) && !defined(__cplusplus)
#define BSPK_AT_ bspcheck_set_site(__FILE__, __LINE__)
#define bspk_malloc(...) bspcheck_bspk_malloc_at(__FILE__, __LINE__, __VA_ARGS__)
#define bspk_lookup(...) bspcheck_bspk_lookup_at(__FILE__, __LINE__, __VA_ARGS__)
#define bspk_free(...) (BSPK_AT_, bspk_free(__VA_ARGS__))
#define bspk_elemP(...) bspcheck_bspk_elemP_at(__FILE__, __LINE__, __VA_ARGS__)
#define bspk_incr(...) bspcheck_bspk_incr_at(__FILE__, __LINE__, __VA_ARGS__)
#define bspk_sync(...) (BSPK_AT_, bspk_sync(__VA_ARGS__))
#define bspk_expect(...) (BSPK_AT_, bspk_expect(__VA_ARGS__))
#define bspk_will_send(...) (BSPK_AT_, bspk_will_send(__VA_ARGS__))
#define bspk_send(...) (BSPK_AT_, bspk_send(__VA_ARGS__))
#define bspk_recv(...) bspcheck_bspk_recv_at(__FILE__, __LINE__)
#define bspk_sender_id(...) bspcheck_bspk_sender_id_at(__FILE__, __LINE__, __VA_ARGS__)
#define bspk_copy(...) (BSPK_AT_, bspk_copy(__VA_ARGS__))
#endif

#endif
