"""A global printed under two processes shows each one's own copy, and set var writes the copy of
the process shown: process 0 has 100+1+1, process 1 200+2+2 when process 1 raises the finding."""
import debuglib

s = debuglib.Session()
out = s.gdb(["print contribution", "bsp process 0", "print contribution", "set var contribution = 555",
             "bsp process 1", "print contribution", "bsp process 0", "print contribution"])
first1, first0, again1, again0 = (debuglib.printed_value(out[i]) for i in (1, 3, 6, 8))
if (first1, first0) != (204, 102):
    debuglib.fail("process 1 and 0 should see 204 and 102, saw %s and %s:\n%s" % (first1, first0, s.transcript))
if (again1, again0) != (204, 555):
    debuglib.fail("set var under process 0 should change process 0's copy only (204, 555), saw %s, %s:\n%s"
                  % (again1, again0, s.transcript))
print("process globals: ok")
