"""bsp restart-at S re-runs the same replay from the start up to superstep S: twice the same
state (process, line, both processes' globals), with the values superstep 2 starts with."""
import debuglib

s = debuglib.Session()
visit = ["bsp restart-at 2", "info bsp", "print contribution", "bsp process 0", "print contribution",
         "bsp process 1", "print contribution"]
out = s.gdb(visit + visit)
first, second = out[1:1 + len(visit)], out[1 + len(visit):]


def state(pieces):
    rows = debuglib.info_rows(pieces[1])
    return rows, debuglib.printed_value(pieces[4]), debuglib.printed_value(pieces[6])


a, b = state(first), state(second)
if a != b:
    debuglib.fail("restart-at 2 reached two different states:\n%s\n%s\n%s" % (a, b, s.transcript))
rows, c0, c1 = a
if sorted(rows) != [0, 1] or any(r[1] != 2 for r in rows.values()):
    debuglib.fail("info bsp after restart-at 2 should list processes 0 and 1 in superstep 2:\n" + first[1])
if (c0, c1) != (101, 202):
    debuglib.fail("superstep 2 starts with 101 and 202, saw %s and %s:\n%s" % (c0, c1, s.transcript))
print("restart-at: ok")
