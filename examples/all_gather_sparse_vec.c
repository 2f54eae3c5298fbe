/* all_gather_sparse_vec.c: the paper's sparse all-gather with tagged messages (section 4.5.2).
 *
 * A vector of n = p * n_over_p floats is distributed by blocks. Every nonzero is sent, with its
 * global index as a 4-byte tag, to every process; each process then drains its queue with
 * bsp_get_tag / bsp_move. The messages arrive in no particular order, so the receiver sorts them
 * by index before printing. The function sets the tag size for its own use and restores the
 * previous one on exit; the program checks with a second bsp_set_tagsize that it is restored.
 *
 * Usage: all_gather_sparse_vec [n_over_p]   (default 5)
 * Global element g is nonzero exactly when g % 3 != 1, and then equals g + 0.5.
 * Output, one line per process s:
 *   sparse: pid s nnz K idx:val idx:val ...     (sorted by idx, val printed with %.1f)
 *   sparse: pid s tagsize restored 0
 */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

static int all_gather_sparse_vec(float *dense, int n_over_p, float **sparse_out,
                                 int **sparse_ivec_out) {
  int global_idx, i, j, tag_size, p = bsp_nprocs(), nonzeros, nonzeros_size, status;
  int *sparse_ivec = NULL;
  float *sparse = NULL;

  tag_size = sizeof(int);
  bsp_set_tagsize(&tag_size);
  bsp_sync();

  for (i = 0; i < n_over_p; i++)
    if (dense[i] != 0.0f) {
      global_idx = n_over_p * bsp_pid() + i;
      for (j = 0; j < p; j++) bsp_send(j, &global_idx, &dense[i], sizeof(float));
    }
  bsp_sync();

  bsp_qsize(&nonzeros, &nonzeros_size);
  if (nonzeros_size != nonzeros * (int)sizeof(float))
    bsp_abort("{all_gather_sparse_vec} %d messages but %d payload bytes", nonzeros, nonzeros_size);
  if (nonzeros > 0) {
    sparse = calloc((size_t)nonzeros, sizeof(float));
    sparse_ivec = calloc((size_t)nonzeros, sizeof(int));
    if (sparse == NULL || sparse_ivec == NULL) bsp_abort("Unable to allocate memory");
    for (i = 0; i < nonzeros; i++) {
      bsp_get_tag(&status, &sparse_ivec[i]);
      if (status != sizeof(float)) bsp_abort("Should never get here");
      bsp_move(&sparse[i], sizeof(float));
    }
  }
  bsp_set_tagsize(&tag_size);
  *sparse_out = sparse;
  *sparse_ivec_out = sparse_ivec;
  return nonzeros;
}

int main(int argc, char **argv) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int n_over_p = argc > 1 ? atoi(argv[1]) : 5;
  if (n_over_p < 1) bsp_abort("sparse: n_over_p must be positive, got %d", n_over_p);

  float *dense = malloc((size_t)n_over_p * sizeof(float));
  if (dense == NULL) bsp_abort("sparse: no memory");
  int expected = 0;
  for (int i = 0; i < n_over_p; i++) {
    int g = s * n_over_p + i;
    dense[i] = g % 3 != 1 ? (float)g + 0.5f : 0.0f;
  }
  for (int g = 0; g < p * n_over_p; g++) expected += g % 3 != 1;

  float *vals;
  int *idx;
  int nnz = all_gather_sparse_vec(dense, n_over_p, &vals, &idx);
  if (nnz != expected) bsp_abort("sparse: pid %d received %d nonzeros, expected %d", s, nnz, expected);

  /* Insertion sort by global index: the queue order is arbitrary. */
  for (int i = 1; i < nnz; i++) {
    int ki = idx[i];
    float kv = vals[i];
    int j = i - 1;
    while (j >= 0 && idx[j] > ki) {
      idx[j + 1] = idx[j];
      vals[j + 1] = vals[j];
      j--;
    }
    idx[j + 1] = ki;
    vals[j + 1] = kv;
  }
  printf("sparse: pid %d nnz %d", s, nnz);
  for (int i = 0; i < nnz; i++) printf(" %d:%.1f", idx[i], (double)vals[i]);
  printf("\n");

  /* The tag size the function restored (0) is in force from the next superstep on; there,
   * setting it again reports the size in force. */
  bsp_sync();
  int ts = 0;
  bsp_set_tagsize(&ts);
  bsp_sync();
  printf("sparse: pid %d tagsize restored %d\n", s, ts);

  free(vals);
  free(idx);
  free(dense);
  bsp_end();
  return 0;
}
