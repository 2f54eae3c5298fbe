"""info bsp lists every process with its state and superstep, and the running process at the
finding's call; bsp superstep and bsp findings agree with it."""
import debuglib

s = debuglib.Session()
_, info, step, findings = s.gdb(["info bsp", "bsp superstep", "bsp findings"])
rows = debuglib.info_rows(info)
if sorted(rows) != [0, 1]:
    debuglib.fail("info bsp should list processes 0 and 1:\n" + info)
if any(r[1] != 3 for r in rows.values()):
    debuglib.fail("both processes are in superstep 3 at the finding:\n" + info)
if rows[1][:1] != ("running",) or rows[1][2:] != ("bsp_put", debuglib.tag_line("bug")):
    debuglib.fail("process 1 should be running at its bsp_put:\n" + info)
if rows[0][0] == "running":
    debuglib.fail("only one process runs:\n" + info)
if "superstep 3; process 1 runs" not in step:
    debuglib.fail("bsp superstep disagrees:\n" + step)
if "1. [bounds-put] superstep 3" not in findings:
    debuglib.fail("bsp findings does not list the finding:\n" + findings)
print("info bsp: ok")
