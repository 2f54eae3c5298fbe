// A GoogleTest of the in-process C++ API (bspcheck::run), which tests/debug/in_process_test.py runs
// under gdb: the extension sees its processes, their stacks and their locals as it does a program's.
#include <bspcheck/bspcheck.hpp>
#include <gtest/gtest.h>

#include "bsp.h"

TEST(InProcess, RingUnderGdb) {
  bspcheck::Options o;
  o.procs = 3;
  o.seed = 5;
  const bspcheck::RunResult r = bspcheck::run(o, [] {
    bsp_begin(bsp_nprocs());
    int mine = 100 + bsp_pid(), from_left = -1;
    bsp_push_reg(&from_left, sizeof from_left);
    bsp_sync();
    bsp_put((bsp_pid() + 1) % bsp_nprocs(), &mine, &from_left, 0, sizeof mine);
    bsp_sync();                                                                /* TAG:after-put */
    EXPECT_EQ(from_left, 100 + (bsp_pid() + bsp_nprocs() - 1) % bsp_nprocs()); /* TAG:check */
    bsp_pop_reg(&from_left);
    bsp_end();
  });
  EXPECT_TRUE(r.ok());
}
