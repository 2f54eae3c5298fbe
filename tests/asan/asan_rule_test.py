"""An ASan-only rule fires on every seed with its catalogue severity, names the call and the line
of the access (marked BUG). An error fails the run. A warning (get-dst-early-read: the read is
defined) fails it too when AddressSanitizer caught the read, since ASan cannot resume a program
after a poisoned access; caught by a hardware watchpoint (--needs-watchpoints), the program goes
on, prints its last line and the run passes.

usage: asan_rule_test.py BSP_CHECK PROGRAM SOURCE RULE [--needs-watchpoints]
"""
import json, os, subprocess, sys, tempfile

bsp_check, program, source, rule = sys.argv[1:5]
needs_watchpoints = "--needs-watchpoints" in sys.argv[5:]


def watchpoints_refused():
    """Whether the kernel refuses a hardware breakpoint through perf_event_open (a container's
    seccomp profile, perf_event_paranoid = 3): then bytes ASan cannot poison are not watched."""
    import ctypes, struct
    target = ctypes.c_long(0)
    # struct perf_event_attr, its first 72 bytes (PERF_ATTR_SIZE_VER1): type = PERF_TYPE_BREAKPOINT,
    # flags = disabled | exclude_kernel | exclude_hv, bp_type = HW_BREAKPOINT_RW, bp_len = 4.
    attr = struct.pack("=IIQQQQQIIQQ", 5, 72, 0, 0, 0, 0, 1 | 1 << 5 | 1 << 6, 0, 3, ctypes.addressof(target), 4)
    buf = ctypes.create_string_buffer(attr, 128)
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.syscall(298, buf, 0, -1, -1, 8)  # SYS_perf_event_open (x86_64), PERF_FLAG_FD_CLOEXEC
    if fd >= 0:
        os.close(fd)
    return fd < 0
call_line = next(i for i, l in enumerate(open(source, encoding="utf-8"), 1) if "/* CALL */" in l)
bug_line = next(i for i, l in enumerate(open(source, encoding="utf-8"), 1) if "/* BUG: " + rule in l)
catalogue = json.loads(subprocess.run([bsp_check, "--list-rules", "--json"], capture_output=True, check=True).stdout)
rows = catalogue["rules"] if isinstance(catalogue, dict) else catalogue
severity = next(r["severity"] for r in rows if r["id"] == rule)
continues = severity == "warning" and needs_watchpoints
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "runs.json")
    res = subprocess.run([bsp_check, "run", "-p", "2", "--seeds", "10", "--keep-going", "--json", out, program],
                         stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    text = (res.stdout + res.stderr).decode(errors="replace")
    expected = 0 if continues else 1
    assert res.returncode == expected, f"expected exit {expected}, got {res.returncode}\n{text[-3000:]}"
    runs = json.load(open(out))["runs"]
assert len(runs) == 10, runs
if needs_watchpoints and os.uname().machine == "x86_64" and watchpoints_refused():
    if os.environ.get("BSPCHECK_REQUIRE_WATCHPOINTS"):
        sys.exit("perf_event_open refuses hardware breakpoints here, and BSPCHECK_REQUIRE_WATCHPOINTS is set")
    print(f"skipped: {rule} needs a hardware watchpoint, which this kernel or container refuses")
    sys.exit(0)
for r in runs:
    hits = [f for f in r["findings"] if f["rule"] == rule and f["severity"] == severity
            and any(l["file"].endswith(os.path.basename(source)) and l["line"] == call_line for l in f["locations"])
            and any(l["file"].endswith(os.path.basename(source)) and l["line"] == bug_line and l["call"] in ("read", "write")
                    for l in f["locations"])]
    assert hits, f"seed {r['seed']}: no {rule} {severity} naming {os.path.basename(source)}:{call_line} and the access at {bug_line}: {r}"
if continues:  # the program ran to its end after the warning: a stopped one exits with status 1
    assert all(r["passed"] and r["exit_status"] == 0 for r in runs), runs
print(f"ok: {rule} ({severity}) on all 10 seeds at {os.path.basename(source)}:{call_line}, the access at line {bug_line}")
