"""An ASan-only rule fires on every seed with its catalogue severity, names the call and the line
of the access (marked BUG). An error fails the run. After a warning (get-dst-early-read: the read
is defined) the program goes on, whether AddressSanitizer caught the read (it resumes the program
under the options bsp-check run sets) or a hardware watchpoint did (--needs-watchpoints), and the
run passes. With --needs-watchpoints (an access only a hardware
watchpoint sees), that holds where the probe saw watchpoints fire; elsewhere the session says that
the check was not made. With --second-look (a read before the hpput is called), some of the seeds
see the race only in bsp-check run's second look at the run, with the destination poisoned from the
superstep's start, and their findings say so.

usage: asan_rule_test.py BSP_CHECK PROGRAM SOURCE RULE [--needs-watchpoints] [--second-look]
"""
import json, os, subprocess, sys, tempfile

bsp_check, program, source, rule = sys.argv[1:5]
needs_watchpoints = "--needs-watchpoints" in sys.argv[5:]
second_look = "--second-look" in sys.argv[5:]


def watchpoint_answer():
    """The driver's probe of this machine's hardware watchpoints (runtime/memory_checks/watchpoint_probe.hpp),
    from `bsp-check --version`: "fire", "silent", "refused" or "unsupported". The program's
    runtime probes the same machine, with the same environment, and gets the same answer."""
    out = subprocess.run([bsp_check, "--version"], capture_output=True, text=True, check=True).stdout
    line = next((l for l in out.splitlines() if l.startswith("hardware watchpoints: ")), None)
    assert line, f"bsp-check --version does not say whether watchpoints fire:\n{out}"
    return line.split()[2]


call_line = next(i for i, l in enumerate(open(source, encoding="utf-8"), 1) if "/* CALL */" in l)
bug_line = next(i for i, l in enumerate(open(source, encoding="utf-8"), 1) if "/* BUG: " + rule in l)
# An access only a watchpoint sees, where none fires: not reported by its rule, and the session says
# that the check was not made (its summary and its JSON report), instead of passing as a checked
# one. Its exit status is not the point: another check may still see the bug's effects (a poll that
# spins until the hpget lands prints schedule-dependent output: schedule-divergence).
watched = not needs_watchpoints or watchpoint_answer() == "fire"
catalogue = json.loads(subprocess.run([bsp_check, "--list-rules", "--json"], capture_output=True, check=True).stdout)
rows = catalogue["rules"] if isinstance(catalogue, dict) else catalogue
severity = next(r["severity"] for r in rows if r["id"] == rule)
continues = severity == "warning" and watched
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "runs.json")
    res = subprocess.run([bsp_check, "run", "-p", "2", "--seeds", "10", "--keep-going", "--json", out, program],
                         stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    text = (res.stdout + res.stderr).decode(errors="replace")
    expected = (0 if continues else 1,) if watched else (0, 1)
    assert res.returncode in expected, f"expected exit {expected}, got {res.returncode}\n{text[-3000:]}"
    session = json.load(open(out))
    runs = session["runs"]
assert len(runs) == 10, runs
if not watched:
    unchecked = session.get("unchecked", [])
    assert any(rule in line for line in unchecked), f"no note that {rule} was not checked: {unchecked}"
    assert f"bsp-check: note: not checked: " in text, text[-3000:]
    assert not any(f["rule"] == rule for r in runs for f in r["findings"]), runs
    print(f"ok: watchpoints do not fire here ({watchpoint_answer()}): {rule} at the edge not checked, and the session says so")
    sys.exit(0)
for r in runs:
    hits = [f for f in r["findings"] if f["rule"] == rule and f["severity"] == severity
            and any(l["file"].endswith(os.path.basename(source)) and l["line"] == call_line for l in f["locations"])
            and any(l["file"].endswith(os.path.basename(source)) and l["line"] == bug_line and l["call"] in ("read", "write")
                    for l in f["locations"])]
    assert hits, f"seed {r['seed']}: no {rule} {severity} naming {os.path.basename(source)}:{call_line} and the access at {bug_line}: {r}"
if second_look:  # without the second look, these seeds would pass
    looked = [r["seed"] for r in runs for f in r["findings"] if f["rule"] == rule and "before the call" in f["message"]]
    assert looked, f"no seed needed the second look: {runs}"
    print(f"seeds seen in the second look: {looked}")
if needs_watchpoints:  # the watched end was checked: no note says otherwise
    assert "unchecked" not in session, session.get("unchecked")
if continues:  # the program ran to its end after the warning: a stopped one exits with status 1
    assert all(r["passed"] and r["exit_status"] == 0 for r in runs), runs
print(f"ok: {rule} ({severity}) on all 10 seeds at {os.path.basename(source)}:{call_line}, the access at line {bug_line}")
