"""gdb loads the extension by itself for a program linked with the runtime: the auto-load script
beside the library (libbspcheck.so.<version>-gdb.py), once its folder is in gdb's safe-path, and a
plain `run` stops at the first finding. Without the safe-path gdb declines it: no `bsp` command.
Usage: autoload_test.py BSP-CHECK BSPCC CFLAGS LIBRARY-DIR."""
import sys

import debuglib

lib_dir = sys.argv.pop(4)
s = debuglib.Session()
_, run, info = s.gdb(["run", "info bsp"], direct_with=["-iex", "add-auto-load-safe-path " + lib_dir])
if "bsp-check finding [bounds-put]" not in run or "[bsp process 1, superstep 3]" not in run:
    debuglib.fail("run did not stop at the finding with the extension loaded:\n" + s.transcript)
if sorted(debuglib.info_rows(info)) != [0, 1]:
    debuglib.fail("info bsp does not list the processes:\n" + s.transcript)
_, run, info = s.gdb(["run", "info bsp"], direct_with=["-iex", "set auto-load safe-path /nonexistent"])
if "auto-loading has been declined" not in run or "Undefined info command" not in info:
    debuglib.fail("without the safe-path gdb should decline the script:\n" + s.transcript)
print("autoload: ok")
