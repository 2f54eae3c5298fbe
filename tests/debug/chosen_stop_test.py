"""bsp-check debug --superstep S --process K stops where K first runs in S instead of at the first
finding (process 0 in superstep 2: contribution 101 there); --finding N stops at the N-th finding,
and says so when the replay raises fewer."""
import debuglib

s = debuglib.Session()
_, info, value = s.gdb(["info bsp", "print contribution"], debug_options=["--superstep", "2", "--process", "0"])
rows = debuglib.info_rows(info)
if rows.get(0, ("",))[0] != "running" or any(r[1] != 2 for r in rows.values()):
    debuglib.fail("--superstep 2 --process 0 should stop in process 0, superstep 2:\n" + s.transcript)
if debuglib.printed_value(value) != 101:
    debuglib.fail("process 0 starts superstep 2 with 101:\n" + s.transcript)
start, _ = s.gdb(["bsp findings"], debug_options=["--finding", "2"])
if "bsp: the run raised fewer than 2 findings before it ended" not in start:
    debuglib.fail("--finding 2 on a replay with one finding should say it found fewer:\n" + s.transcript)
print("chosen stop: ok")
