"""Traces end to end: record, replay (same output), kept traces of failing runs, divergence,
refusal of bad traces, traces cut off by a crash, and the size per call.

usage: trace_test.py BSP_CHECK EXAMPLES_DIR WORKDIR
"""
import json, os, re, shutil, subprocess, sys

bsp_check, examples, work, order_bug = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL:", msg)


def run(args, env=None, cwd=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(args, capture_output=True, stdin=subprocess.DEVNULL, env=e, cwd=cwd, timeout=300)


def strip_time(b):  # the summary line carries the elapsed time
    return b"\n".join(l for l in b.split(b"\n") if not l.startswith(b"bsp-check: 1 of 1 run") and b" clean (" not in l)


# 1. Record and replay give the same output, bit for bit, for several programs and seeds.
for ex in ["samplesort", "all_gather_sparse_vec", "bsp_sum", "reverse", "hello"]:
    prog = os.path.join(examples, ex)
    for p, seed in [(3, 5), (4, 11), (8, 2)]:
        t = os.path.join(work, f"{ex}-{p}-{seed}.trace")
        a = run([bsp_check, "run", "-p", str(p), "--seed", str(seed), "--prefix", "[%p] ", "--trace", t, prog])
        check(a.returncode == 0 and os.path.getsize(t) > 0, f"{ex} p={p} seed={seed}: recording failed: {a.stderr[-500:]}")
        b = run([bsp_check, "replay", "--prefix", "[%p] ", t])
        check(b.returncode == 0, f"{ex}: replay failed: {b.stderr[-800:]}")
        check(a.stdout == b.stdout, f"{ex} p={p} seed={seed}: replay output differs")
print("ok: record/replay")

# 2. A failing run keeps its trace and prints the replay command; the replay fails the same way.
buggy = os.path.join(examples, "buggy", "ring_hp_race")
kept = os.path.join(work, "kept")
shutil.rmtree(kept, ignore_errors=True)
os.makedirs(kept)
a = run([bsp_check, "run", "-p", "4", "--seeds", "20", "--disable", "hp-src-modified", "--trace-dir", kept, buggy])
text = a.stderr.decode(errors="replace")
check(a.returncode == 1, f"buggy run did not fail: {text[-800:]}")
traces = os.listdir(kept)
check(len(traces) == 1, f"expected one kept trace, got {traces}")
check("replay: bsp-check replay" in text, f"no replay command printed: {text[-800:]}")
if traces:
    t = os.path.join(kept, traces[0])
    r1 = run([bsp_check, "replay", t])
    check(r1.returncode == 1 and b"error[abort]" in r1.stderr, f"replay of the kept trace did not fail with abort: {r1.stderr[-800:]}")
    seed = traces[0].split("-s")[1].split(".")[0]
    r2 = run([bsp_check, "run", "-p", "4", "--seed", seed, "--disable", "hp-src-modified", "--no-keep-trace", buggy])
    check(r1.stdout == r2.stdout, "the replay's output differs from the failing run's")
print("ok: kept trace")

# 3. Divergence: replaying with another program, or other arguments, names the first difference.
t = os.path.join(work, "samplesort-4-11.trace")
d = run([bsp_check, "replay", t, "--", os.path.join(examples, "reverse")])
check(d.returncode == 1 and b"error[replay-divergence]" in d.stderr, f"no replay-divergence: {d.stderr[-800:]}")
check(b"where the trace has" in d.stderr, "the divergence does not say what the trace has")
# Its reproduce line replays the same program, not the one the trace names.
reverse = os.path.join(examples, "reverse")
check(f"reproduce: bsp-check replay {t} -- {reverse}".encode() in d.stderr,
      f"the reproduce line drops the program given after --: {d.stderr[-800:]}")
print("ok: divergence")

# 4. Bad traces are refused with exit status 2 and a reason, never a crash.
good = open(t, "rb").read()
bad = {
    "foreign": (b"hello, world\n" * 10, b"not a bsp-check trace"),
    "empty": (b"", b"not a bsp-check trace"),
    "version": (good[:8] + bytes([9, 0]) + good[10:], b"format version 9"),
    "truncated": (good[:30], b"truncated"),
    "corrupted-header": (good[:60] + bytes([good[60] ^ 0x55]) + good[61:], b"corrupted"),
    "corrupted-record": (good[:-40] + bytes([good[-40] ^ 0x55]) + good[-39:], b"corrupted"),
}
for name, (data, reason) in bad.items():
    path = os.path.join(work, f"bad-{name}.trace")
    open(path, "wb").write(data)
    r = run([bsp_check, "replay", path])
    err = r.stderr.decode(errors="replace")
    check(r.returncode == 2, f"{name} trace: exit {r.returncode}, expected 2: {err[-400:]}")
    check(reason in r.stderr, f"{name} trace: message lacks {reason!r}: {err[-400:]}")
    check(err.count("\n") <= 2, f"{name} trace: more than a line or two: {err}")
r = run([bsp_check, "replay", os.path.join(work, "no-such.trace")])
check(r.returncode == 2 and b"cannot read" in r.stderr, "a missing trace is not refused clearly")
print("ok: bad traces")

# A trace cut at a record boundary (as by a crash) is usable: it replays, with a note where it ends.
cut = os.path.join(work, "cut.trace")
body = good[:-5]  # without the end record and its checksum
open(cut, "wb").write(body)
r = run([bsp_check, "replay", cut])
full = run([bsp_check, "replay", t])
check(r.returncode == 0 and r.stdout == full.stdout, f"a cut-off trace did not replay like the whole one: {r.stderr[-600:]}")

# 5. A crash leaves a trace usable up to the crash: it replays to the same crash.
crash = os.path.join(examples, "checks", "crash")
check(os.path.exists(crash), f"no crash example at {crash}: the crash trace was not tried")
if os.path.exists(crash):
    t = os.path.join(work, "crash.trace")
    a = run([bsp_check, "run", "-p", "3", "--seed", "4", "--trace", t, crash])
    check(a.returncode == 1 and b"error[crash]" in a.stderr, f"crash example did not crash: {a.stderr[-500:]}")
    check(os.path.exists(t) and os.path.getsize(t) > 40, "the crash left no trace")
    r = run([bsp_check, "replay", t])
    check(r.returncode == 1 and b"error[crash]" in r.stderr and b"replay-divergence" not in r.stderr,
          f"the crash trace did not replay to the crash: {r.stderr[-800:]}")
    print("ok: crash trace")

# 6. Compactness: bytes per recorded call on the examples (the goal is 16 or fewer).
for ex in ["samplesort", "all_gather_sparse_vec", "bsppermute", "put_array"]:
    t, rep = os.path.join(work, "size.trace"), os.path.join(work, "size.json")
    run([os.path.join(examples, ex)], env={"BSPCHECK_OPTIONS": f"procs=4:seed=1:trace={t}:report={rep}"})
    calls = json.load(open(rep))["trace"]["calls"]
    per = os.path.getsize(t) / calls
    print(f"{ex}: {calls} calls, {os.path.getsize(t)} bytes, {per:.1f} bytes per call")
    check(per <= 16, f"{ex}: {per:.1f} bytes per call")

# 7. Across seeds: a program whose output depends on the message order is a schedule-divergence,
# with the first differing line and both reproduce commands; it can opt out.
order = os.path.join(examples, "buggy", "message_order")
a = run([bsp_check, "run", "-p", "3", "--seeds", "10", "--no-keep-trace", order])
text = a.stderr.decode(errors="replace")
check(a.returncode == 1 and "error[schedule-divergence]" in text, f"no schedule-divergence: {text[-800:]}")
check("first difference on stdout, line 1" in text and "left neighbour's value" in text,
      f"the divergence does not show the differing line: {text[-800:]}")
check(text.count("bsp-check run -p 3 --seed") >= 2, f"both reproduce commands are not shown: {text[-800:]}")
b = run([bsp_check, "run", "-q", "-p", "3", "--seeds", "10", "--schedule-dependent-output", order])
check(b.returncode == 0, f"--schedule-dependent-output did not opt out: {b.stderr[-400:]}")
c = run([bsp_check, "run", "-q", "-p", "1-4", "--seeds", "10", os.path.join(examples, "samplesort")])
check(c.returncode == 0, f"a deterministic program was reported: {c.stderr[-400:]}")
print("ok: schedule-divergence")

# 8. Shrink: a failure that needs one particular schedule is reduced to a few choices, and the
# minimal trace fails the same way; a failure of the default schedule needs none.
sdir = os.path.join(work, "shrink")
shutil.rmtree(sdir, ignore_errors=True)
os.makedirs(sdir)
a = run([bsp_check, "run", "-q", "-p", "4", "--seeds", "100", "--trace-dir", sdir, order_bug])
kept = [f for f in os.listdir(sdir) if f.endswith(".trace")]
check(a.returncode == 1 and len(kept) == 1, f"order_bug did not fail with a kept trace: {a.stderr[-500:]}")
if kept:
    t = os.path.join(sdir, kept[0])
    s = run([bsp_check, "shrink", "-q", t])
    out = s.stdout.decode(errors="replace")
    check(s.returncode == 0, f"shrink failed: {out} {s.stderr[-500:]}")
    m = re.search(r"with (\d+) of its (\d+) scheduling choices", out)
    check(m and 1 <= int(m.group(1)) <= 3 and int(m.group(1)) < int(m.group(2)), f"shrink kept too much: {out}")
    check("critical superstep" in out, f"no critical superstep: {out}")
    minimal = t[: -len(".trace")] + ".min.trace"
    r = run([bsp_check, "replay", minimal])
    check(r.returncode == 1 and b"error[abort]" in r.stderr and b"replay-divergence" not in r.stderr,
          f"the minimal trace does not fail the same way: {r.stderr[-600:]}")
    print("ok: shrink:", out.splitlines()[0] if out else "")
t = os.path.join(sdir, "ring.trace")
run([bsp_check, "run", "-q", "-p", "4", "--seed", "2", "--disable", "hp-src-modified", "--trace", t,
     os.path.join(examples, "buggy", "ring_hp_race")])
s = run([bsp_check, "shrink", "-q", t])
check(s.returncode == 0 and b"no choice matters" in s.stdout, f"a default-schedule failure was not recognised: {s.stdout[-400:]}")

# 9. The fork server changes nothing but speed: the same findings and per-process output as a
# fresh start of the program for every run, standard input included.
for prog, stdin in [(os.path.join(examples, "samplesort"), b""), (os.path.join(examples, "inprod"), b"0 500"),
                    (os.path.join(examples, "buggy", "ring_hp_race"), b"")]:
    results = []
    for flag in ([], ["--no-fork-server"]):
        out = os.path.join(work, "fs.json")
        subprocess.run([bsp_check, "run", "-q", "-p", "1-4", "--seeds", "6", "--keep-going", "--json", out] + flag + [prog],
                       input=stdin, capture_output=True, timeout=300)
        runs = json.load(open(out))["runs"]
        results.append([(r["procs"], r["seed"], r["passed"], r.get("output_hash"), [f["rule"] for f in r["findings"]])
                        for r in runs])
    check(results[0] == results[1], f"{os.path.basename(prog)}: the fork server changed the runs")
print("ok: fork server")

# 10. Explore: the order_bug needs one non-default message order; explore finds it with bound 1,
# keeps its trace, and the trace replays to the failure. A program with nothing to choose is
# exhausted at once; bound 0 runs only the default schedule.
edir = os.path.join(work, "explore")
shutil.rmtree(edir, ignore_errors=True)
os.makedirs(edir)
e = run([bsp_check, "explore", "--bound", "1", "-p", "4", "--trace-dir", edir, order_bug])
out = e.stdout.decode(errors="replace")
check(e.returncode == 1 and "fails" in out and "1 non-default choice" in out, f"explore did not find order_bug: {out}")
kept = [f for f in os.listdir(edir) if f.endswith(".trace")]
check(len(kept) == 1, f"explore kept no trace: {kept}")
if kept:
    r = run([bsp_check, "replay", os.path.join(edir, kept[0])])
    check(r.returncode == 1 and b"error[abort]" in r.stderr, f"explore's trace does not replay the failure: {r.stderr[-500:]}")
e = run([bsp_check, "explore", "--bound", "0", "-p", "4", order_bug])
check(e.returncode == 0 and b"1 distinct schedules" in e.stdout and b"not exhausted" in e.stdout,
      f"bound 0: {e.stdout.decode(errors='replace')}")
e = run([bsp_check, "explore", "--bound", "2", "-p", "4", os.path.join(examples, "reverse")])
check(e.returncode == 0 and b"was exhausted" in e.stdout, f"reverse was not exhausted: {e.stdout.decode(errors='replace')}")
print("ok: explore")

print("trace test: ok" if not failures else f"{len(failures)} failures")
sys.exit(1 if failures else 0)
