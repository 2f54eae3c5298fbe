"""Globals switched by remapping (1 MiB of data) are shown per process too: stopped where process
1 enters superstep 1, big[1000] is 101 under process 1 and 100 under process 0, and set var under
process 0 changes process 0's copy only. Usage: remapped_globals_test.py BSP-CHECK BSPCC CFLAGS LIBRARY-DIR."""
import sys

import debuglib

lib_dir = sys.argv.pop(4)
out = debuglib.plain_gdb("remapped_globals.c", "procs=2:seed=1:break_superstep=1:break_process=1",
                         ["run", "python print(bspcheck_gdb.view().ranges_list())", "print big[1000]",
                          "bsp process 0", "print big[1000]", "set var big[1000] = 55", "bsp process 1",
                          "print big[1000]", "bsp process 0", "print big[1000]"], lib_dir, sys.argv[3].split())
ranges = eval(out[2].strip().splitlines()[-1])
if not any(size >= (1 << 20) and stride == size for _, size, _, stride in ranges):
    debuglib.fail("the data should be remapped (one range of 1 MiB or more, its stride its size): %s" % ranges)
values = [debuglib.printed_value(out[i]) for i in (3, 5, 8, 10)]
if values != [101, 100, 101, 55]:
    debuglib.fail("big[1000] under processes 1, 0, 1, 0 (after set var 55 under 0): %s\n%s" % (values, "".join(out)))
print("remapped globals: ok")
