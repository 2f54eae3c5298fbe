/* mcbsp-affinity.h: MulticoreBSP for C's thread placement controls, served by bsp-check.
 *
 * All processes of a bsp-check run are coroutines of one OS thread, so there is nothing to pin:
 * the placement settings are kept, their getters return what was set (or MulticoreBSP's
 * defaults), and they have no other effect. mcbsp_set_maximum_threads is the one that changes
 * behaviour, as in MulticoreBSP: bsp_nprocs() before bsp_begin and the number of processes
 * bsp_begin grants are at most that many. The "machine" is the -p processors of the run. */
#ifndef BSPCHECK_MCBSP_AFFINITY_H
#define BSPCHECK_MCBSP_AFFINITY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum mcbsp_affinity_mode { SCATTER = 0, COMPACT, MANUAL };
enum mcbsp_thread_numbering { CONSECUTIVE = 0, WRAPPED };

void mcbsp_set_maximum_threads(const size_t max);
void mcbsp_set_affinity_mode(const enum mcbsp_affinity_mode mode);
void mcbsp_set_available_cores(const size_t num_cores);
void mcbsp_set_threads_per_core(const size_t threads_per_core);
void mcbsp_set_unused_threads_per_core(const size_t unused_threads_per_core);
void mcbsp_set_thread_numbering(const enum mcbsp_thread_numbering numbering);
/* Copies the array; implies mcbsp_set_affinity_mode(MANUAL). */
void mcbsp_set_pinning(const size_t *const pinning, const size_t length);
/* Copies the array. */
void mcbsp_set_reserved_cores(const size_t *const reserved, const size_t length);

/* The processors available to the run (-p), or what mcbsp_set_maximum_threads set. */
size_t mcbsp_get_maximum_threads(void);
enum mcbsp_affinity_mode mcbsp_get_affinity_mode(void);
/* The processors available to the run divided by the threads per core, or what was set. */
size_t mcbsp_get_available_cores(void);
size_t mcbsp_get_threads_per_core(void);
size_t mcbsp_get_unused_threads_per_core(void);
enum mcbsp_thread_numbering mcbsp_get_thread_numbering(void);
/* NULL when no pinning was set, else a copy (malloc'd: the caller frees it) of as many entries as
 * mcbsp_get_maximum_threads() (zeros beyond the array that was set). */
size_t *mcbsp_get_pinning(void);
size_t mcbsp_get_reserved_cores_number(void);
/* NULL when no cores are reserved, else a copy (malloc'd: the caller frees it). */
size_t *mcbsp_get_reserved_cores(void);

/* The defaults the settings start from: SCATTER, 1, CONSECUTIVE. */
extern enum mcbsp_affinity_mode MCBSP_DEFAULT_AFFINITY;
extern size_t MCBSP_DEFAULT_THREADS_PER_CORE;
extern enum mcbsp_thread_numbering MCBSP_DEFAULT_THREAD_NUMBERING;

#ifdef __cplusplus
}
#endif

#endif /* BSPCHECK_MCBSP_AFFINITY_H */
