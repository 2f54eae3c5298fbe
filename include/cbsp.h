/* cbsp.h: counting BSP (cBSP: counting synchronisation and handlers, as in the paper "counting
 * Bulk Synchronous Parallel", section 4.3) on bsp-check's deterministic engine. Use it inside
 * bsp_begin/bsp_end: bsp_pid() is the node, bsp_nprocs() the number of nodes. docs/cbsp.md.
 *
 * Define BSPCHECK_NO_SITE_MACROS before including this header to get the bare declarations. */
#ifndef BSPCHECK_CBSP_H
#define BSPCHECK_CBSP_H

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*cBSP_handler)(int srcNode, void *destAddr, int nBytes);

void cBSP_initialize(void);
void cBSP_send(int node, void *destAddr, const void *srcAddr, int nbytes, cBSP_handler handler);
void cBSP_nsync(int count);
void cBSP_gsync(void);

/* Records the call site of the next primitive (the macros below call it). */
void bspcheck_set_site(const char *file, int line);

#ifdef __cplusplus
}
#endif

#if !defined(BSPCHECK_NO_SITE_MACROS) && !defined(__cplusplus)
#define cBSP_initialize(...) (bspcheck_set_site(__FILE__, __LINE__), cBSP_initialize(__VA_ARGS__))
#define cBSP_send(...) (bspcheck_set_site(__FILE__, __LINE__), cBSP_send(__VA_ARGS__))
#define cBSP_nsync(...) (bspcheck_set_site(__FILE__, __LINE__), cBSP_nsync(__VA_ARGS__))
#define cBSP_gsync(...) (bspcheck_set_site(__FILE__, __LINE__), cBSP_gsync(__VA_ARGS__))
#endif

#endif
