/* extras.c: an Oxford BSP toolset program written the way its users wrote them. "bsp.h" is its
 * only include: the toolset's bsp.h brings <stdio.h>, so printf, scanf and stdout need nothing
 * more. It uses what that bsp.h declares beside the 20 primitives: the older names
 * bsp_pushregister, bsp_popregister, bsp_set_tag_size and bsp_bsmp_info, Miller's superstep
 * brackets bspsstep and bspsstep_end, the timers bsp_dtime and bsp_cputime, and the machine
 * parameters bsp_s, bsp_l, bsp_g and bsp_nhalf (whose values under bsp-check it prints: they are
 * documented in docs/dialects.md). Every other line it prints is the same for every p: a check
 * that fails prints FAILED. */
#include "bsp.h"

static int nprocs;

static void fail(const char *what) {
  printf("FAILED on process %d: %s\n", bsp_pid(), what);
  fflush(stdout);
}

static void spmd(void) {
  int value, tagsize = (int)sizeof(int), i, p, me, nmsg = -1, nbytes = -1, sum = 0;
  double since_begin, again, cpu, now;

  bsp_begin(nprocs);
  p = bsp_nprocs();
  me = bsp_pid();

  /* The older names of push_reg, set_tagsize and qsize, inside Miller's superstep brackets. */
  bspsstep(1);
  bsp_pushregister(&value, (int)sizeof value);
  bsp_set_tag_size(&tagsize);
  bspsstep_end(1);

  bspsstep(2);
  value = -1;
  bsp_put((me + 1) % p, &me, &value, 0, (int)sizeof me);
  bsp_send(0, &me, &me, (int)sizeof me);
  bspsstep_end(2);
  if (value != (me + p - 1) % p) fail("the put through the area bsp_pushregister registered");
  if (me == 0) {
    bsp_bsmp_info(&nmsg, &nbytes);
    if (nmsg != p || nbytes != p * (int)sizeof(int)) fail("bsp_bsmp_info's counts");
    for (i = 0; i < nmsg; ++i) {
      int status, tag, payload;
      bsp_get_tag(&status, &tag);
      bsp_move(&payload, (int)sizeof payload);
      if (status != (int)sizeof(int) || tag != payload) fail("a message sent with the tag size bsp_set_tag_size set");
      sum += payload;
    }
    if (sum != p * (p - 1) / 2) fail("the messages' payloads");
    printf("bsp_pushregister, bsp_set_tag_size, bsp_bsmp_info, bspsstep_end: ok\n");
  }
  bsp_popregister(&value);
  bsp_sync();

  /* bsp_dtime: the time since the process's previous bsp_dtime, the first since bsp_begin (three
   * barriers ago); the second, right after the first, is shorter. */
  since_begin = bsp_dtime();
  now = bsp_time();
  again = bsp_dtime();
  cpu = bsp_cputime();
  if (!(since_begin > 0.0 && since_begin <= now)) fail("the first bsp_dtime is not the time since bsp_begin");
  if (!(again >= 0.0 && again < since_begin)) fail("the second bsp_dtime is not the time since the first");
  if (!(cpu >= now)) fail("bsp_cputime went back");

  if (me == 0) {
    printf("bsp_dtime, bsp_cputime: ok\n");
    printf("bsp_s = %g, bsp_l = %g, bsp_g = %g, bsp_nhalf = %d\n", bsp_s(), bsp_l(), bsp_g(), bsp_nhalf());
  }
  fflush(stdout);
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(spmd, argc, argv);
  printf("How many processors do you want to use?\n");
  fflush(stdout);
  if (scanf("%d", &nprocs) != 1 || nprocs < 1) nprocs = bsp_nprocs();
  spmd();
  return 0;
}
