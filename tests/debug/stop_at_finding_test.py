"""bsp-check debug stops where the first finding is raised: the finding printed, and the program's
frame of the process that raised it selected, at the finding's line (process 1's bsp_put)."""
import debuglib

s = debuglib.Session()
start, frame = s.gdb(["frame"])
bug = debuglib.tag_line("bug")
if "bsp-check finding [bounds-put]" not in start:
    debuglib.fail("the finding is not printed at the stop:\n" + s.transcript)
if "[bsp process 1, superstep 3]" not in start:
    debuglib.fail("not stopped in process 1, superstep 3:\n" + s.transcript)
if debuglib.program_line(frame) != bug:
    debuglib.fail("the selected frame is not main at line %d (the bsp_put):\n%s" % (bug, s.transcript))
print("stop at finding: ok")
