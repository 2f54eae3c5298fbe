"""info bsp under cBSP: each process's own superstep (engine/core/local_sync.hpp), not the global
barrier's. examples/cbsp/broadcast.c, stopped in its handler the second time: process 0 and the
first receiver have left counting superstep 0, the others have not.
Usage: local_supersteps_test.py BSP-CHECK BSPCC CFLAGS LIBRARY-DIR."""
import os
import sys

import debuglib

lib_dir = sys.argv.pop(4)
source = os.path.join(debuglib.HERE, "..", "..", "examples", "cbsp", "broadcast.c")
out = debuglib.plain_gdb(source, "procs=4:seed=3", ["break forward", "run", "continue", "info bsp"], lib_dir,
                         sys.argv[3].split())
rows = debuglib.info_rows(out[4])
if sorted(rows) != [0, 1, 2, 3]:
    debuglib.fail("info bsp should list four processes:\n" + out[4])
steps = {pid: r[1] for pid, r in rows.items()}
if steps[0] != 1 or sorted(steps.values()) != [0, 0, 1, 1]:
    debuglib.fail("processes should be in their own supersteps (0 and one receiver in 1): %s\n%s" % (steps, out[4]))
print("local supersteps: ok")
