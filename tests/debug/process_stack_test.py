"""bsp process K then bt: the stack of a suspended process, down to its program's frame at its
last BSPlib call (the line info bsp names for it), without the running process's frames."""
import debuglib

s = debuglib.Session()
_, info, _, bt0, _, bt1 = s.gdb(["info bsp", "bsp process 0", "bt", "bsp process 1", "bt"])
rows = debuglib.info_rows(info)
if 0 not in rows:
    debuglib.fail("info bsp lists no process 0:\n" + info)
state, _, call, line = rows[0]
calls = {debuglib.tag_line("loop-sync"): "bsp_sync", debuglib.tag_line("bug"): "bsp_put",
         debuglib.tag_line("last-sync"): "bsp_sync"}
if calls.get(line) != call:
    debuglib.fail("process 0's last call %s at line %d is none of the program's calls in superstep 2-3:\n%s"
                  % (call, line, info))
if debuglib.program_line(bt0) != line:
    debuglib.fail("bt of process 0 does not reach main at line %d:\n%s" % (line, bt0))
if "bspcheck_finding_raised" in bt0:
    debuglib.fail("bt of process 0 shows the running process's frames:\n" + bt0)
if "bspcheck_finding_raised" not in bt1 or debuglib.program_line(bt1) != debuglib.tag_line("bug"):
    debuglib.fail("back on process 1, bt is not its own stack at the bsp_put:\n" + bt1)
print("process stack: ok")
