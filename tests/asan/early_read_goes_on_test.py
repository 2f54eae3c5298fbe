"""get-dst-early-read lets the program go on (docs/checks.md, get-dst-early-read): a program that
reads its bsp_gets' destinations early on purpose and checks them runs to its end under bsp-check
run, with the warning and nothing else, over many seeds and p = 1..4; AddressSanitizer's own report
text of the warning is not shown. Run directly, it goes on under the ASAN_OPTIONS the driver sets
(runtime/memory_checks/asan_recovery.hpp), and without them ASan stops it at the warning, with a
note that says how to go on. A real memory error after such a warning (at the same instruction, while
another destination is poisoned) still stops the run as a crash, with ASan's report shown.

usage: early_read_goes_on_test.py BSP_CHECK ON_PURPOSE ON_PURPOSE_SOURCE ERROR_AFTER_WARNING SEEDS
"""
import json, os, subprocess, sys, tempfile

bsp_check, on_purpose, source, error_after_warning, seeds = sys.argv[1:6]
RULE = "get-dst-early-read"
NOTE = "AddressSanitizer stops the program at the warning above"


def marked_lines(path, marker):
    return [i for i, l in enumerate(open(path, encoding="utf-8"), 1) if marker in l]


def session(program, args, procs, n):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "runs.json")
        res = subprocess.run([bsp_check, "run", "-p", procs, "--seeds", str(n), "--keep-going", "--json", out, program]
                             + args, stdin=subprocess.DEVNULL, capture_output=True, timeout=600)
        return res, (res.stdout + res.stderr).decode(errors="replace"), json.load(open(out))["runs"]


def direct(program, args, asan_options):
    env = dict(os.environ, BSPCHECK_OPTIONS="procs=2:seed=3")
    env["ASAN_OPTIONS"] = ":".join(o for o in (os.environ.get("ASAN_OPTIONS", ""), asan_options) if o)
    res = subprocess.run([program] + args, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    return res, (res.stdout + res.stderr).decode(errors="replace")


# Under the driver: the warning on every run at both reads, the run passes (no --werror), and the
# program printed its last line on every process (the JSON has each run's status).
bug_lines = marked_lines(source, "/* BUG: " + RULE)
assert len(bug_lines) == 2, bug_lines
res, text, runs = session(on_purpose, [], "1-4", int(seeds))
assert res.returncode == 0, f"exit {res.returncode}\n{text[-3000:]}"
assert len(runs) == 4 * int(seeds), len(runs)
for r in runs:
    assert r["passed"] and r["exit_status"] == 0, r
    assert {f["rule"] for f in r["findings"]} == {RULE}, r["findings"]
    assert all(f["severity"] == "warning" for f in r["findings"]), r["findings"]
    lines = {l["line"] for f in r["findings"] for l in f["locations"]
             if l["file"].endswith(os.path.basename(source)) and l["call"] in ("read", "write")}
    assert set(bug_lines) <= lines, f"p={r['procs']} seed {r['seed']}: warnings at {lines}, not at {bug_lines}"
assert "ERROR: AddressSanitizer" not in text, "ASan's report of a warning is shown:\n" + text[-3000:]
assert NOTE not in text, text[-3000:]
print(f"ok: {len(runs)} runs at p = 1..4 ran to their end with the warning at lines {bug_lines} and nothing else")

# Run directly: it goes on under the driver's options, and ASan stops it without them.
res, text = direct(on_purpose, [], "halt_on_error=0:suppress_equal_pcs=0")
assert res.returncode == 0 and RULE in text and "every early read saw the old contents" in text, text[-3000:]
res, text = direct(on_purpose, [], "halt_on_error=1")
assert res.returncode != 0 and RULE in text and NOTE in text, f"exit {res.returncode}\n{text[-3000:]}"
assert "every early read saw the old contents" not in text, text[-3000:]
print("ok: run directly, it goes on with halt_on_error=0:suppress_equal_pcs=0, and ASan stops it with a note without")

# A real error after the warning stops the run, under the driver and run directly.
for kind, asan_words in (("overflow", "heap-buffer-overflow"), ("freed", "heap-use-after-free")):
    res, text, runs = session(error_after_warning, [kind], "2", 5)
    assert res.returncode == 1, f"{kind}: exit {res.returncode}\n{text[-3000:]}"
    for r in runs:
        rules = [f["rule"] for f in r["findings"]]
        assert not r["passed"] and "crash" in rules and RULE in rules, f"{kind}: {r}"
    assert asan_words in text, f"{kind}: ASan's report is not shown:\n{text[-3000:]}"
    assert "went on after a memory error" not in text and "reached its end" not in text, text[-3000:]
    res, text = direct(error_after_warning, [kind], "halt_on_error=0:suppress_equal_pcs=0")
    assert res.returncode != 0 and asan_words in text and "went on after a memory error" not in text, \
        f"{kind}, run directly: exit {res.returncode}\n{text[-3000:]}"
    print(f"ok: a {asan_words} after the warning stops the run (a crash, ASan's report shown)")
