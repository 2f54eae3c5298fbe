/* bsp.h: the classic BSPlib C interface (Hill, McColl et al., table 2), served by bsp-check.
 *
 * All 20 primitives keep their classic int signatures, so programs written for BSPonMPI, the
 * Oxford BSP toolset or BSPedupack compile unchanged. Each primitive is also wrapped by a
 * function-like macro that records the call's __FILE__ and __LINE__ just before the call, so
 * that every diagnostic can name the source line. Taking a primitive's address (&bsp_put) still
 * yields the real function: a function-like macro only expands when followed by '('.
 * Define BSPCHECK_NO_SITE_MACROS before including this header to get the bare declarations. */
#ifndef BSPCHECK_BSP_H
#define BSPCHECK_BSP_H

#ifdef __cplusplus
extern "C" {
#endif

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

/* bsp-check extension: the source location of the next BSPlib call. The macros below set it;
 * the runtime reads and clears it at the call. */
void bspcheck_set_site(const char *file, int line);
/* bsp-check extension: bsp_nprocs, bsp_pid and bsp_time with their source location. */
int bspcheck_nprocs_at(const char *file, int line);
int bspcheck_pid_at(const char *file, int line);
double bspcheck_time_at(const char *file, int line);

#ifdef __cplusplus
}
#endif

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
#define bsp_sync(...) (BSPCHECK_AT_, bsp_sync(__VA_ARGS__))
#define bsp_push_reg(...) (BSPCHECK_AT_, bsp_push_reg(__VA_ARGS__))
#define bsp_pop_reg(...) (BSPCHECK_AT_, bsp_pop_reg(__VA_ARGS__))
#define bsp_put(...) (BSPCHECK_AT_, bsp_put(__VA_ARGS__))
#define bsp_hpput(...) (BSPCHECK_AT_, bsp_hpput(__VA_ARGS__))
#define bsp_get(...) (BSPCHECK_AT_, bsp_get(__VA_ARGS__))
#define bsp_hpget(...) (BSPCHECK_AT_, bsp_hpget(__VA_ARGS__))
#define bsp_set_tagsize(...) (BSPCHECK_AT_, bsp_set_tagsize(__VA_ARGS__))
#define bsp_send(...) (BSPCHECK_AT_, bsp_send(__VA_ARGS__))
#define bsp_qsize(...) (BSPCHECK_AT_, bsp_qsize(__VA_ARGS__))
#define bsp_get_tag(...) (BSPCHECK_AT_, bsp_get_tag(__VA_ARGS__))
#define bsp_move(...) (BSPCHECK_AT_, bsp_move(__VA_ARGS__))
#define bsp_hpmove(...) (BSPCHECK_AT_, bsp_hpmove(__VA_ARGS__))
#endif

#endif /* BSPCHECK_BSP_H */
