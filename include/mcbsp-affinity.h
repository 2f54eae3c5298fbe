/* mcbsp-affinity.h: MulticoreBSP for C's thread placement controls, served by bsp-check.
 *
 * All processes of a bsp-check run are coroutines of one OS thread, so there is nothing to pin:
 * the placement settings are accepted and have no effect. mcbsp_set_maximum_threads is the one
 * that changes behaviour, as in MulticoreBSP: bsp_nprocs() before bsp_begin and the number of
 * processes bsp_begin grants are at most that many. */
#ifndef BSPCHECK_MCBSP_AFFINITY_H
#define BSPCHECK_MCBSP_AFFINITY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum mcbsp_affinity_mode { SCATTER, COMPACT, MANUAL };
enum mcbsp_thread_numbering { CONSECUTIVE, WRAPPED };

void mcbsp_set_maximum_threads(size_t max);
void mcbsp_set_affinity_mode(enum mcbsp_affinity_mode mode);
void mcbsp_set_available_cores(size_t num_cores);
void mcbsp_set_threads_per_core(size_t threads_per_core);
void mcbsp_set_thread_numbering(enum mcbsp_thread_numbering numbering);
void mcbsp_set_pinning(size_t *pinning, size_t length);
void mcbsp_set_reserved_cores(size_t *reserved, size_t length);

#ifdef __cplusplus
}
#endif

#endif /* BSPCHECK_MCBSP_AFFINITY_H */
