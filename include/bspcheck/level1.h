/* level1.h: level-1 BSPlib operations (collectives) built only on the 20 BSPlib primitives.
 *
 * The BSPlib paper (Hill, McColl et al., section 6) names bsp_bcast, bsp_fold, bsp_scan,
 * bsp_gather, bsp_scatter and bsp_exchange as "level 1 operations" and gives them three rules,
 * which every function here follows:
 *   (1) the areas it reaches by DRMA are registered inside it, the registration is followed by a
 *       bsp_sync, and they are de-registered (bsp_pop_reg) before it returns;
 *   (2) when it uses BSMP it sets the tag size itself (a bsp_sync) and asks for the previous
 *       size back before it returns (that request takes effect at the caller's next bsp_sync);
 *   (3) its messages are delivered and moved off the queue inside it: the queue is empty on exit.
 * Each is bracketed by bspcheck_level1_enter/bspcheck_level1_exit (bspcheck/hygiene.h), so that
 * under bsp-check any deviation is reported as a `level1-hygiene` warning. Build the library
 * with -DBSPCHECK_LEVEL1_NO_HYGIENE to use it with another BSPlib implementation.
 *
 * Calling conventions, common to all functions:
 *  - Every function is collective: all p processes call it in the same superstep with the same
 *    root, count and elem_size (alltoallv/exchange: matching counts, see there). None of them is
 *    a barrier: with p == 1, or when there is nothing to communicate, they return without a sync.
 *  - count is a number of elements, elem_size the bytes per element; B = count * elem_size is the
 *    block each process contributes. B, p*B and every message must fit in an int (BSPlib's byte
 *    counts are ints); a larger request ends the run with bsp_abort.
 *  - Buffers given as "significant at root only" may be NULL on other processes.
 *  - Preconditions of the level-1 rules: call with no messages of your own in flight or unread
 *    (any bsp_sync empties the queue) and with no bsp_set_tagsize request pending in the current
 *    superstep (bsp_set_tagsize reports the valid size only, so a pending request is replaced).
 *    Puts and gets of the caller still pending are delivered at the first internal sync and add
 *    to the h-relation of that superstep.
 *  - Operators (bsp_level1_op) fold arrays elementwise: op(acc, x, count, ctx) must set
 *    acc[k] = acc[k] (+) x[k] for k < count. The operator must be associative; it need NOT be
 *    commutative: every result is folded in increasing pid order, x_0 (+) x_1 (+) ... (+) x_{p-1},
 *    on every process alike, so non-commutative operators (matrix product, concatenation) and
 *    floating-point sums give the same bits on every process and in every schedule. acc and x
 *    never overlap and are aligned for the element type (when elem_size is a multiple of its
 *    alignment). The operator must not call BSPlib and must not throw.
 *
 * BSP cost (BSPlib paper 5.1): cost = sum over supersteps of (max w_i + h*g + l). Below, S is the
 * number of bsp_sync calls a function makes and h_k the h-relation of its k-th superstep in
 * bytes, as bsp-check measures it (a process's h is max(bytes sent, bytes received); a message
 * counts tag + payload). Own data is copied locally (memcpy), never sent to oneself. For
 * p == 1 or B == 0 every function except alltoallv/exchange costs S = 0 and no communication.
 * Otherwise (p >= 2, B > 0):
 *
 *   function            S   h_1   h_2                    h_3
 *   bsp_bcast           2   0     (p-1)*B
 *   bsp_bcast_2phase    3   0     B - b                  (p-1)*b,   b = ceil(B/p)
 *   bsp_reduce          2   0     (p-1)*B
 *   bsp_allreduce       2   0     (p-1)*B
 *   bsp_scan            2   0     (p-1)*B
 *   bsp_gather          2   0     (p-1)*B
 *   bsp_allgather       2   0     (p-1)*B
 *   bsp_scatter         2   0     (p-1)*B
 *   bsp_alltoall        2   0     (p-1)*B
 *   bsp_alltoallv       2   0     H        (p >= 2, whatever the counts; S = 0 for p == 1)
 *   bsp_exchange        2   0     H        (likewise)
 *
 * where for alltoallv/exchange, with c_ij = elements process i sends to process j and
 * t = sizeof(int) (the tag), H = max over i of max( sum_{j != i, c_ij > 0} (t + c_ij*elem_size),
 *                                                  sum_{j != i, c_ji > 0} (t + c_ji*elem_size) ).
 * The first superstep (h = 0) is the registration (or tag size) superstep the level-1 rules
 * require. Local work: reduce/allreduce fold p blocks, scan folds pid+1 blocks (each p-1 or pid
 * operator calls of count elements); the rest copy O(p*B) bytes at most.
 * Extra memory: reduce (at root), allreduce and scan allocate p*B bytes; exchange none.
 */
#ifndef BSPCHECK_LEVEL1_H
#define BSPCHECK_LEVEL1_H

/* The Oxford toolset's bsp_level1.h makes bsp_bcast, bsp_gather, bsp_scatter and bsp_scan macros
 * of its own arguments (docs/dialects.md): after it, the declarations below would not parse. */
#ifdef BSPCHECK_OXFORD_LEVEL1_H
#error \
    "bsp-check: the Oxford toolset's <bsp_level1.h> and bsp-check's <bspcheck/level1.h> declare bsp_bcast, bsp_gather, bsp_scatter and bsp_scan with different arguments: include one of them"
#endif

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* acc[k] = acc[k] (+) x[k] for k < count (see above). */
typedef void (*bsp_level1_op)(void *acc, const void *x, size_t count, void *ctx);

/* One-phase broadcast: root's buf[0..count) is copied into buf on every process.
 * S = 2; h = 0, (p-1)*B (root sends B to each other process). Best for small B. */
void bsp_bcast(int root, void *buf, size_t count, size_t elem_size);

/* Two-phase broadcast (scatter then all-gather of blocks of b = ceil(B/p) bytes): the same
 * result as bsp_bcast. S = 3; h = 0, B - b, (p-1)*b: about 2B in total instead of (p-1)*B, so it
 * wins for large B at the price of one more superstep (l). */
void bsp_bcast_2phase(int root, void *buf, size_t count, size_t elem_size);

/* Fold to one (the paper's bsp_fold, MPI's reduce): dst[k] = src_0[k] (+) ... (+) src_{p-1}[k]
 * on root; dst is significant at root only. src == dst is allowed. S = 2; h = 0, (p-1)*B. */
void bsp_reduce(int root, const void *src, void *dst, size_t count, size_t elem_size, bsp_level1_op op, void *ctx);

/* Fold to all: dst on every process as bsp_reduce's on root, bit for bit the same everywhere.
 * src == dst is allowed. S = 2; h = 0, (p-1)*B (all-to-all of the contributions). */
void bsp_allreduce(const void *src, void *dst, size_t count, size_t elem_size, bsp_level1_op op, void *ctx);

/* Inclusive prefix (scan): dst on process i = src_0 (+) ... (+) src_i, elementwise, in pid
 * order. src == dst is allowed. S = 2; h = 0, (p-1)*B (process 0 sends p-1 blocks, process p-1
 * receives p-1). */
void bsp_scan(const void *src, void *dst, size_t count, size_t elem_size, bsp_level1_op op, void *ctx);

/* Gather: block i of root's dst (count elements at dst + i*B) = src of process i. dst holds
 * p*count elements and is significant at root only. S = 2; h = 0, (p-1)*B (root receives). */
void bsp_gather(int root, const void *src, void *dst, size_t count, size_t elem_size);

/* All-gather: block i of dst = src of process i, on every process; dst holds p*count elements.
 * src may be dst + pid*B (in place). S = 2; h = 0, (p-1)*B. */
void bsp_allgather(const void *src, void *dst, size_t count, size_t elem_size);

/* Scatter: dst on process i = block i of root's src (p*count elements, significant at root
 * only). S = 2; h = 0, (p-1)*B (root sends). */
void bsp_scatter(int root, const void *src, void *dst, size_t count, size_t elem_size);

/* All-to-all (total exchange): block j of dst on process i = block i of src on process j; src
 * and dst hold p*count elements each and must not overlap. S = 2; h = 0, (p-1)*B. */
void bsp_alltoall(const void *src, void *dst, size_t count, size_t elem_size);

/* All-to-all with varying counts (MPI_Alltoallv): process i sends sendcounts[j] elements from
 * src + sdispls[j]*elem_size to process j, which receives them at dst + rdispls[i]*elem_size;
 * recvcounts[i] on process j must equal sendcounts[j] on process i (else bsp_abort). Arrays of
 * p entries; displacements in elements; src and dst must not overlap. BSMP with a tag of
 * sizeof(int) bytes (the sender's pid); empty blocks send no message. S = 2 for p >= 2 (the tag
 * size superstep, then the messages), S = 0 for p == 1; h = 0, H (see the table above). */
void bsp_alltoallv(const void *src, const size_t *sendcounts, const size_t *sdispls, void *dst,
                   const size_t *recvcounts, const size_t *rdispls, size_t elem_size);

/* Exchange with counts discovered on receipt (the paper's bsp_exchange): like bsp_alltoallv,
 * but the receiver need not know the counts. For every process i with a non-empty block for
 * the caller (the caller included), deliver(i, data, count, ctx) is called once, in increasing
 * i, before bsp_exchange returns; data is valid during the call only and need not be aligned
 * (memcpy from it). Same cost as bsp_alltoallv. */
void bsp_exchange(const void *src, const size_t *sendcounts, const size_t *sdispls, size_t elem_size,
                  void (*deliver)(int from, const void *data, size_t count, void *ctx), void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* BSPCHECK_LEVEL1_H */
