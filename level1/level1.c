/* level1.c: level-1 BSPlib collectives on the 20 BSPlib primitives (see bspcheck/level1.h).
 *
 * Shape of every DRMA collective: superstep 1 registers the destination areas (one bsp_push_reg
 * per process, at one source line, so that every slot pairs the same call); superstep 2 carries
 * the puts; after it the areas are popped (no sync needed) and local work finishes. Own data is
 * copied with memcpy rather than put to oneself. No function keeps static state: under
 * bsp-check all processes share one address space. */
#include "bspcheck/level1.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bsp.h"

#ifdef BSPCHECK_LEVEL1_NO_HYGIENE
#define L1_ENTER(name) ((void)0)
#define L1_EXIT(name) ((void)0)
#else
#include "bspcheck/hygiene.h"
#define L1_ENTER(name) bspcheck_level1_enter(name)
#define L1_EXIT(name) bspcheck_level1_exit(name)
#endif

/* a * b as an int byte count, or bsp_abort naming the operation. */
static int l1_bytes(const char *fn, size_t a, size_t b) {
  if (a != 0 && b > (size_t)INT_MAX / a) bsp_abort("%s: %zu * %zu bytes do not fit in an int", fn, a, b);
  return (int)(a * b);
}

static void l1_check_root(const char *fn, int root) {
  if (root < 0 || root >= bsp_nprocs()) bsp_abort("%s: root %d is not a process (p = %d)", fn, root, bsp_nprocs());
}

static void *l1_alloc(const char *fn, size_t n) {
  void *m = malloc(n ? n : 1);
  if (!m) bsp_abort("%s: cannot allocate %zu bytes", fn, n);
  return m;
}

static void l1_copy(void *dst, const void *src, size_t n) {
  if (n && dst != src) memmove(dst, src, n);
}

void bsp_bcast(int root, void *buf, size_t count, size_t elem_size) {
  L1_ENTER("bsp_bcast");
  const int p = bsp_nprocs(), me = bsp_pid();
  l1_check_root("bsp_bcast", root);
  const int nb = l1_bytes("bsp_bcast", count, elem_size);
  if (p > 1 && nb > 0) {
    bsp_push_reg(buf, nb);
    bsp_sync();
    if (me == root)
      for (int j = 0; j < p; ++j)
        if (j != root) bsp_put(j, buf, buf, 0, nb);
    bsp_sync();
    bsp_pop_reg(buf);
  }
  L1_EXIT("bsp_bcast");
}

void bsp_bcast_2phase(int root, void *buf, size_t count, size_t elem_size) {
  L1_ENTER("bsp_bcast_2phase");
  const int p = bsp_nprocs(), me = bsp_pid();
  l1_check_root("bsp_bcast_2phase", root);
  const int nb = l1_bytes("bsp_bcast_2phase", count, elem_size);
  if (p > 1 && nb > 0) {
    /* Block k (bytes [k*b, min((k+1)*b, nb))) belongs to process (root + k) mod p. */
    const int b = (nb + p - 1) / p;
    char *bytes = (char *)buf;
#define L1_BLOCK_SIZE(k) ((k)*b >= nb ? 0 : (nb - (k)*b < b ? nb - (k)*b : b))
    bsp_push_reg(buf, nb);
    bsp_sync();
    if (me == root)
      for (int k = 1; k < p; ++k)
        if (L1_BLOCK_SIZE(k) > 0) bsp_put((root + k) % p, bytes + k * b, buf, k * b, L1_BLOCK_SIZE(k));
    bsp_sync();
    const int mine = (me - root + p) % p;
    if (L1_BLOCK_SIZE(mine) > 0)
      for (int j = 0; j < p; ++j)
        if (j != me && j != root) bsp_put(j, bytes + mine * b, buf, mine * b, L1_BLOCK_SIZE(mine));
    bsp_sync();
#undef L1_BLOCK_SIZE
    bsp_pop_reg(buf);
  }
  L1_EXIT("bsp_bcast_2phase");
}

/* Collects every process's block into scratch (p*nb bytes, block i from process i) on the
 * processes for which `receives(i, me)` holds, by one registration superstep and one superstep
 * of puts. Used by reduce (to root), allreduce (to all) and scan (to higher pids). */
enum l1_pattern { L1_TO_ROOT, L1_TO_ALL, L1_TO_HIGHER };

static int l1_receives(enum l1_pattern pat, int root, int from, int to) {
  switch (pat) {
    case L1_TO_ROOT:
      return to == root;
    case L1_TO_ALL:
      return 1;
    default:
      return to > from;
  }
}

static void l1_collect(enum l1_pattern pat, int root, const void *src, char *scratch, int nb) {
  const int p = bsp_nprocs(), me = bsp_pid();
  char anchor; /* names the slot on processes that receive nothing (registered with size 0) */
  const int receives_any = pat != L1_TO_ROOT || me == root;
  bsp_push_reg(receives_any ? (void *)scratch : (void *)&anchor, receives_any ? p * nb : 0);
  bsp_sync();
  for (int j = 0; j < p; ++j)
    if (j != me && l1_receives(pat, root, me, j))
      bsp_put(j, src, receives_any ? (void *)scratch : (void *)&anchor, me * nb, nb);
  if (receives_any) l1_copy(scratch + (size_t)me * nb, src, (size_t)nb);
  bsp_sync();
  bsp_pop_reg(receives_any ? (void *)scratch : (void *)&anchor);
}

/* dst = block 0 (+) ... (+) block last of scratch. */
static void l1_fold(char *dst, const char *scratch, int last, int nb, size_t count, bsp_level1_op op, void *ctx) {
  l1_copy(dst, scratch, (size_t)nb);
  for (int i = 1; i <= last; ++i) op(dst, scratch + (size_t)i * nb, count, ctx);
}

void bsp_reduce(int root, const void *src, void *dst, size_t count, size_t elem_size, bsp_level1_op op, void *ctx) {
  L1_ENTER("bsp_reduce");
  const int p = bsp_nprocs(), me = bsp_pid();
  l1_check_root("bsp_reduce", root);
  const int nb = l1_bytes("bsp_reduce", count, elem_size);
  l1_bytes("bsp_reduce", (size_t)p, (size_t)nb);
  if (nb > 0) {
    if (p == 1) {
      l1_copy(dst, src, (size_t)nb);
    } else {
      char *scratch = me == root ? (char *)l1_alloc("bsp_reduce", (size_t)p * nb) : NULL;
      l1_collect(L1_TO_ROOT, root, src, scratch, nb);
      if (me == root) l1_fold((char *)dst, scratch, p - 1, nb, count, op, ctx);
      free(scratch);
    }
  }
  L1_EXIT("bsp_reduce");
}

void bsp_allreduce(const void *src, void *dst, size_t count, size_t elem_size, bsp_level1_op op, void *ctx) {
  L1_ENTER("bsp_allreduce");
  const int p = bsp_nprocs();
  const int nb = l1_bytes("bsp_allreduce", count, elem_size);
  l1_bytes("bsp_allreduce", (size_t)p, (size_t)nb);
  if (nb > 0) {
    if (p == 1) {
      l1_copy(dst, src, (size_t)nb);
    } else {
      char *scratch = (char *)l1_alloc("bsp_allreduce", (size_t)p * nb);
      l1_collect(L1_TO_ALL, 0, src, scratch, nb);
      l1_fold((char *)dst, scratch, p - 1, nb, count, op, ctx);
      free(scratch);
    }
  }
  L1_EXIT("bsp_allreduce");
}

void bsp_scan(const void *src, void *dst, size_t count, size_t elem_size, bsp_level1_op op, void *ctx) {
  L1_ENTER("bsp_scan");
  const int p = bsp_nprocs(), me = bsp_pid();
  const int nb = l1_bytes("bsp_scan", count, elem_size);
  l1_bytes("bsp_scan", (size_t)p, (size_t)nb);
  if (nb > 0) {
    if (p == 1) {
      l1_copy(dst, src, (size_t)nb);
    } else {
      char *scratch = (char *)l1_alloc("bsp_scan", (size_t)p * nb);
      l1_collect(L1_TO_HIGHER, 0, src, scratch, nb);
      l1_fold((char *)dst, scratch, me, nb, count, op, ctx);
      free(scratch);
    }
  }
  L1_EXIT("bsp_scan");
}

void bsp_gather(int root, const void *src, void *dst, size_t count, size_t elem_size) {
  L1_ENTER("bsp_gather");
  const int p = bsp_nprocs(), me = bsp_pid();
  l1_check_root("bsp_gather", root);
  const int nb = l1_bytes("bsp_gather", count, elem_size);
  l1_bytes("bsp_gather", (size_t)p, (size_t)nb);
  if (nb > 0) {
    if (p > 1) l1_collect(L1_TO_ROOT, root, src, (char *)dst, nb);
    else l1_copy(dst, src, (size_t)nb);
  }
  (void)me;
  L1_EXIT("bsp_gather");
}

void bsp_allgather(const void *src, void *dst, size_t count, size_t elem_size) {
  L1_ENTER("bsp_allgather");
  const int p = bsp_nprocs();
  const int nb = l1_bytes("bsp_allgather", count, elem_size);
  l1_bytes("bsp_allgather", (size_t)p, (size_t)nb);
  if (nb > 0) {
    if (p > 1) l1_collect(L1_TO_ALL, 0, src, (char *)dst, nb);
    else l1_copy(dst, src, (size_t)nb);
  }
  L1_EXIT("bsp_allgather");
}

void bsp_scatter(int root, const void *src, void *dst, size_t count, size_t elem_size) {
  L1_ENTER("bsp_scatter");
  const int p = bsp_nprocs(), me = bsp_pid();
  l1_check_root("bsp_scatter", root);
  const int nb = l1_bytes("bsp_scatter", count, elem_size);
  l1_bytes("bsp_scatter", (size_t)p, (size_t)nb);
  if (nb > 0) {
    const char *blocks = (const char *)src;
    if (p > 1) {
      bsp_push_reg(dst, nb);
      bsp_sync();
      if (me == root)
        for (int j = 0; j < p; ++j)
          if (j != root) bsp_put(j, blocks + (size_t)j * nb, dst, 0, nb);
      if (me == root) l1_copy(dst, blocks + (size_t)root * nb, (size_t)nb);
      bsp_sync();
      bsp_pop_reg(dst);
    } else {
      l1_copy(dst, src, (size_t)nb);
    }
  }
  L1_EXIT("bsp_scatter");
}

void bsp_alltoall(const void *src, void *dst, size_t count, size_t elem_size) {
  L1_ENTER("bsp_alltoall");
  const int p = bsp_nprocs(), me = bsp_pid();
  const int nb = l1_bytes("bsp_alltoall", count, elem_size);
  const int total = l1_bytes("bsp_alltoall", (size_t)p, (size_t)nb);
  if (nb > 0) {
    const char *blocks = (const char *)src;
    if (p > 1) {
      bsp_push_reg(dst, total);
      bsp_sync();
      for (int j = 0; j < p; ++j)
        if (j != me) bsp_put(j, blocks + (size_t)j * nb, dst, me * nb, nb);
      l1_copy((char *)dst + (size_t)me * nb, blocks + (size_t)me * nb, (size_t)nb);
      bsp_sync();
      bsp_pop_reg(dst);
    } else {
      l1_copy(dst, src, (size_t)nb);
    }
  }
  L1_EXIT("bsp_alltoall");
}

/* BSMP part of alltoallv and exchange: sets the tag size to sizeof(int) (superstep 1), sends
 * every non-empty block but the own one with the sender's pid as tag (superstep 2). Returns the
 * previous tag size, to be requested back once the queue is empty. */
static int l1_send_blocks(const char *fn, const void *src, const size_t *sendcounts, const size_t *sdispls,
                          size_t elem_size) {
  const int p = bsp_nprocs(), me = bsp_pid();
  int tagsize = (int)sizeof(int);
  bsp_set_tagsize(&tagsize);
  bsp_sync();
  for (int j = 0; j < p; ++j) {
    if (j == me || sendcounts[j] == 0) continue;
    const int nb = l1_bytes(fn, sendcounts[j], elem_size);
    l1_bytes(fn, sdispls[j], elem_size);
    bsp_send(j, &me, (const char *)src + sdispls[j] * elem_size, nb);
  }
  return tagsize;
}

void bsp_alltoallv(const void *src, const size_t *sendcounts, const size_t *sdispls, void *dst,
                   const size_t *recvcounts, const size_t *rdispls, size_t elem_size) {
  L1_ENTER("bsp_alltoallv");
  const int p = bsp_nprocs(), me = bsp_pid();
  if (sendcounts[me] != recvcounts[me])
    bsp_abort("bsp_alltoallv: process %d sends itself %zu elements but expects %zu", me, sendcounts[me],
              recvcounts[me]);
  l1_copy((char *)dst + rdispls[me] * elem_size, (const char *)src + sdispls[me] * elem_size,
          sendcounts[me] * elem_size);
  if (p > 1) {
    int previous = l1_send_blocks("bsp_alltoallv", src, sendcounts, sdispls, elem_size);
    bsp_sync();
    int nmessages = 0, nbytes = 0;
    bsp_qsize(&nmessages, &nbytes);
    unsigned char *got = (unsigned char *)l1_alloc("bsp_alltoallv", (size_t)p);
    memset(got, 0, (size_t)p);
    for (int k = 0; k < nmessages; ++k) {
      int len = -1, from = -1;
      bsp_get_tag(&len, &from);
      if (from < 0 || from >= p || from == me || got[from])
        bsp_abort("bsp_alltoallv: process %d received a message not sent by bsp_alltoallv (tag %d)", me, from);
      got[from] = 1;
      if ((size_t)len != recvcounts[from] * elem_size)
        bsp_abort("bsp_alltoallv: process %d expects %zu elements from process %d but receives %zu", me,
                  recvcounts[from], from, (size_t)len / elem_size);
      bsp_move((char *)dst + rdispls[from] * elem_size, len);
    }
    for (int i = 0; i < p; ++i) /* empty blocks send no message */
      if (i != me && !got[i] && recvcounts[i] != 0)
        bsp_abort("bsp_alltoallv: process %d expects %zu elements from process %d but receives none", me, recvcounts[i],
                  i);
    free(got);
    bsp_set_tagsize(&previous);
  }
  L1_EXIT("bsp_alltoallv");
}

void bsp_exchange(const void *src, const size_t *sendcounts, const size_t *sdispls, size_t elem_size,
                  void (*deliver)(int from, const void *data, size_t count, void *ctx), void *ctx) {
  L1_ENTER("bsp_exchange");
  const int p = bsp_nprocs(), me = bsp_pid();
  if (p == 1) {
    if (sendcounts[0] > 0) deliver(0, (const char *)src + sdispls[0] * elem_size, sendcounts[0], ctx);
  } else {
    int previous = l1_send_blocks("bsp_exchange", src, sendcounts, sdispls, elem_size);
    bsp_sync();
    /* The queue order is unspecified: take every message (bsp_hpmove, no copy; valid until the
     * end of this superstep) and deliver in pid order. */
    const void **data = (const void **)l1_alloc("bsp_exchange", (size_t)p * sizeof *data);
    size_t *len = (size_t *)l1_alloc("bsp_exchange", (size_t)p * sizeof *len);
    for (int i = 0; i < p; ++i) data[i] = NULL, len[i] = 0;
    void *tag = NULL, *payload = NULL;
    for (int n; (n = bsp_hpmove(&tag, &payload)) >= 0;) {
      int from;
      memcpy(&from, tag, sizeof from);
      if (from < 0 || from >= p || from == me || data[from])
        bsp_abort("bsp_exchange: process %d received a message not sent by bsp_exchange (tag %d)", me, from);
      data[from] = payload;
      len[from] = (size_t)n;
    }
    data[me] = (const char *)src + sdispls[me] * elem_size;
    len[me] = sendcounts[me] * elem_size;
    for (int i = 0; i < p; ++i)
      if (len[i] > 0) deliver(i, data[i], len[i] / elem_size, ctx);
    free(data);
    free(len);
    bsp_set_tagsize(&previous);
  }
  L1_EXIT("bsp_exchange");
}
