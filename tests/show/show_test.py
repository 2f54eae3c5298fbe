"""bsp-check show end to end: recorded runs of the examples at fixed p and seed, with numbers derived
here independently (reverse, put_array by hand; superstep counts from the runtime's report; h from
the per-process bytes), the JSON output, the chrome trace, the Table 1 presets, and bad traces.

usage: show_test.py BSP_CHECK EXAMPLES_DIR WORKDIR
"""
import json, math, os, subprocess, sys

bsp_check, examples, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL:", msg)


def run(args, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(args, capture_output=True, stdin=subprocess.DEVNULL, env=e, timeout=300)


def record(ex, p, seed, args=()):
    """Records a run of an example directly (BSPCHECK_OPTIONS), with the runtime's JSON report."""
    t = os.path.join(work, f"{ex}-p{p}-s{seed}.trace")
    rep = os.path.join(work, f"{ex}-p{p}-s{seed}.report.json")
    r = run([os.path.join(examples, ex), *args], env={"BSPCHECK_OPTIONS": f"procs={p}:seed={seed}:trace={t}:report={rep}"})
    check(r.returncode == 0, f"{ex} p={p}: the run failed: {r.stderr[-500:]}")
    return t, json.load(open(rep))


def show(trace, *opts):
    r = run([bsp_check, "show", "--json", *opts, trace])
    check(r.returncode == 0, f"show --json {' '.join(opts)} {trace}: exit {r.returncode}: {r.stderr[-500:]}")
    try:
        return json.loads(r.stdout)
    except ValueError as e:
        check(False, f"show --json {trace}: not JSON: {e}")
        return None


def consistent(j, what):
    """Every superstep's h, k1, k2, M from its per-process numbers; bytes out == bytes in."""
    wb = j["word_bytes"]
    for s in j["supersteps"]:
        procs = s["processes"]
        out = [q["bytes_out"] for q in procs]
        inn = [q["bytes_in"] for q in procs]
        i = s["index"]
        check(len(procs) == j["p"], f"{what} superstep {i}: {len(procs)} processes, p = {j['p']}")
        check(sum(out) == sum(inn) == s["total_bytes"], f"{what} superstep {i}: bytes out {sum(out)} != in {sum(inn)}")
        check(s["h_bytes"] == max(out + inn + [0]), f"{what} superstep {i}: h {s['h_bytes']} != max(out, in)")
        check(s["h_words"] == math.ceil(s["h_bytes"] / wb), f"{what} superstep {i}: h_words")
        e = s["ebsp"]
        check(e["k1"] == math.ceil(max(out + [0]) / wb) and e["k2"] == math.ceil(max(inn + [0]) / wb),
              f"{what} superstep {i}: k1/k2 {e}")
        check(e["M"] == math.ceil(sum(out) / wb), f"{what} superstep {i}: M {e['M']}")
        check(max(e["k1"], e["k2"]) == s["h_words"], f"{what} superstep {i}: max(k1, k2) != h")
        check(e["L"] <= j["p"] - 1, f"{what} superstep {i}: L {e['L']} > p - 1")
        check(sum(q["ncalls"] for q in procs) == sum(sum(q["calls"].values()) for q in procs),
              f"{what} superstep {i}: call counts")
    check(sum(sum(q["ncalls"] for q in s["processes"]) for s in j["supersteps"]) == j["calls"], f"{what}: calls total")
    check(j["totals"]["H_words"] == sum(s["h_words"] for s in j["supersteps"]), f"{what}: H")


# 1. reverse, p = 4: supersteps 1 and 3 each move one int from s to p-1-s; 4 syncs + bsp_end.
t, rep = record("reverse", 4, 3)
j = show(t)
if j:
    consistent(j, "reverse")
    check(j["p"] == 4 and j["complete"] and j["seed"] == 3 and j["procs_available"] == 4, f"reverse header: {j['p']}")
    check(len(j["supersteps"]) == rep["supersteps"] + 1 == 5, f"reverse: {len(j['supersteps'])} supersteps, report {rep['supersteps']}")
    check([s["ends"] for s in j["supersteps"]] == ["sync"] * 4 + ["end"], "reverse: superstep ends")
    for k, s in enumerate(j["supersteps"]):
        b = 4 if k in (1, 3) else 0
        for q in s["processes"]:
            check(q["bytes_out"] == b and q["bytes_in"] == b and q["messages_out"] == (1 if b else 0),
                  f"reverse superstep {k} pid {q['pid']}: {q}")
        check(s["h_bytes"] == b and s["h_words"] == b // 4, f"reverse superstep {k}: h {s['h_bytes']}")
        if b:
            check(s["processes"][0]["calls"] == {"sync": 1, "put": 1}, f"reverse calls: {s['processes'][0]['calls']}")
            # E-BSP: a (4, 1, 1)-relation; pid 0 <-> 3 is distance 3 on a line.
            check(s["ebsp"]["M"] == 4 and s["ebsp"]["k1"] == 1 and s["ebsp"]["k2"] == 1 and s["ebsp"]["L"] == 3,
                  f"reverse ebsp {s['ebsp']}")
            check(s["ebsp"]["linear_array_time"] == min(1 * 3, 4) + 4 - 2, f"reverse Theorem 3 time {s['ebsp']}")
    # On a ring, 0 <-> 3 and 1 <-> 2 are neighbours.
    r = show(t, "--topology", "ring")
    check(r and r["supersteps"][1]["ebsp"]["L"] == 1, "reverse: ring locality is not 1")
    # Cray T3E, p = 4: g = 2.1, l = 357, s = 47: cost = 5 l + 2 words * g.
    c = show(t, "--machine", "Cray T3E")
    if c:
        m = c["machine"]
        check(m["name"] == "Cray T3E" and m["row_p"] == 4 and m["exact"] and m["g"] == 2.1 and m["l"] == 357 and m["s"] == 47,
              f"T3E preset: {m}")
        check(abs(c["totals"]["cost"] - (5 * 357 + 2 * 2.1)) < 1e-9, f"reverse T3E cost {c['totals']['cost']}")
        check(abs(c["totals"]["time_seconds"] - (5 * 357 + 2 * 2.1) / 47e6) < 1e-15, "reverse T3E time")
        check(abs(c["supersteps"][1]["cost"] - (2.1 + 357)) < 1e-9, "reverse superstep 1 cost")
    c = show(t, "--g", "3", "--l", "100", "--work", "calls")
    if c:
        # w = most calls of a process: 2, 2, 3, 2, 2 (push_reg+sync, put+sync, pop+push+sync, ...)
        check([s["w"] for s in c["supersteps"]] == [2, 2, 3, 2, 2], f"reverse w: {[s['w'] for s in c['supersteps']]}")
        check(c["totals"]["cost"] == 11 + 2 * 3 + 5 * 100 and c["machine"].get("s") is None, f"reverse --g/--l cost {c['totals']}")
    w8 = show(t, "--word-bytes", "8")
    check(w8 and w8["supersteps"][1]["h_words"] == 1 and w8["supersteps"][1]["ebsp"]["M"] == 2, "reverse --word-bytes 8")
    text = run([bsp_check, "show", t, "--machine", "t3e"])
    out = text.stdout.decode()
    check(text.returncode == 0 and "superstep 4 (ends at bsp_end)" in out and "Cray T3E" in out and "complete" in out,
          f"reverse text: {out[:600]}")
print("ok: reverse")

# 2. put_array, p = 4 and p = 3 (n/p = 4 and 5): process s puts xs[i] (4 bytes) to pid xs[i] / (n/p),
# xs[i] = (a g + 3) mod n for g = s n/p + i, a the smallest odd a >= 3 coprime to n.
for p, nop in [(4, 4), (3, 5)]:
    t, rep = record("put_array", p, 7, [str(nop)])
    j = show(t)
    if not j:
        continue
    consistent(j, f"put_array p={p}")
    n = p * nop
    a = 3
    while math.gcd(a, n) != 1:
        a += 2
    out, inn = [0] * p, [0] * p
    pairs = set()
    for s in range(p):
        for i in range(nop):
            v = (a * (s * nop + i) + 3) % n
            out[s] += 4
            inn[v // nop] += 4
            pairs.add((s, v // nop))
    check(len(j["supersteps"]) == rep["supersteps"] + 1 == 3, f"put_array p={p}: supersteps {len(j['supersteps'])}")
    s1 = j["supersteps"][1]
    check([q["bytes_out"] for q in s1["processes"]] == out, f"put_array p={p}: out {[q['bytes_out'] for q in s1['processes']]} != {out}")
    check([q["bytes_in"] for q in s1["processes"]] == inn, f"put_array p={p}: in {[q['bytes_in'] for q in s1['processes']]} != {inn}")
    check(s1["h_bytes"] == max(out + inn), f"put_array p={p}: h")
    check(s1["ebsp"]["L"] == max(abs(x - y) for x, y in pairs) and s1["ebsp"]["pairs"] == len(pairs),
          f"put_array p={p}: L/pairs {s1['ebsp']}")
    check(all(q["calls"].get("put", 0) == nop for q in s1["processes"]), f"put_array p={p}: puts per process")
print("ok: put_array")

# 3. Other examples: superstep count = the report's syncs + 1; numbers consistent; JSON; chrome trace.
for ex, p, seed in [("samplesort", 4, 3), ("bsppermute", 4, 2), ("all_gather_sparse_vec", 3, 5), ("bsp_sum", 4, 1),
                    ("ring_hp", 4, 1), ("hello", 2, 1)]:
    t, rep = record(ex, p, seed)
    j = show(t)
    if not j:
        continue
    consistent(j, ex)
    check(j["p"] == rep["nprocs"], f"{ex}: p {j['p']} != nprocs {rep['nprocs']}")
    check(len(j["supersteps"]) == rep["supersteps"] + 1, f"{ex}: {len(j['supersteps'])} supersteps, report {rep['supersteps']}")
    ct = os.path.join(work, f"{ex}.chrome.json")
    r = run([bsp_check, "show", "--chrome-trace", ct, t])
    check(r.returncode == 0, f"{ex}: --chrome-trace failed: {r.stderr[-300:]}")
    try:
        events = json.load(open(ct))["traceEvents"]
    except (OSError, ValueError, KeyError) as e:
        check(False, f"{ex}: chrome trace is not valid: {e}")
        continue
    xs = [e for e in events if e["ph"] == "X"]
    check(len(xs) == len(j["supersteps"]) * j["p"], f"{ex}: {len(xs)} X events, expected {len(j['supersteps']) * j['p']}")
    check(all(set(e) >= {"name", "ph", "ts", "pid", "tid"} for e in events if e["ph"] in "Xisf"), f"{ex}: event fields")
    for pid in range(j["p"]):
        mine = sorted((e["ts"], e["dur"]) for e in xs if e["tid"] == pid)
        check(all(a[0] + a[1] <= b[0] for a, b in zip(mine, mine[1:])), f"{ex}: overlapping slices on process {pid}")
        check([d for _, d in mine] == [s["processes"][pid]["ncalls"] for s in j["supersteps"]], f"{ex}: durations != calls")
    starts = sorted({e["ts"] for e in xs})
    check(len(starts) == len(j["supersteps"]), f"{ex}: supersteps do not start together (barriers aligned)")
    comm = sum(q["messages_out"] for s in j["supersteps"] for q in s["processes"])
    inst = [e for e in events if e["ph"] == "i"]
    check(len(inst) >= comm, f"{ex}: {len(inst)} instant events for {comm} messages")
    flows = [e for e in events if e["ph"] in "sf"]
    check(sum(1 for e in flows if e["ph"] == "s") == sum(1 for e in flows if e["ph"] == "f"), f"{ex}: unpaired flows")
print("ok: examples, JSON, chrome trace")

# 4. Presets: nearest row (ties: the larger p), local g, ambiguity, listing.
t = os.path.join(work, "reverse-p4-s3.trace")
for opts, expect in [(["--machine", "cray-t3e", "--machine-p", "5"], ("Cray T3E", 4, 2.1, 357)),
                     (["--machine", "Cray T3E", "--machine-p", "6"], ("Cray T3E", 8, 1.6, 506)),
                     (["--machine", "Cray T3E", "--machine-p", "100"], ("Cray T3E", 32, 1.9, 1252)),
                     (["--machine", "origin", "--g-kind", "local"], ("SGI Origin 2000", 4, 9.1, 1789)),
                     (["--machine", "pentium"], ("Pentium Pro NOW", 4, 1128.5, 139981)),
                     (["--machine", "T3D", "--machine-p", "256", "--l", "1"], ("Cray T3D", 256, 2.4, 1)),
                     (["--machine", "sparc"], ("Sparc-20 SMP", 4, 4.1, 118))]:
    j = show(t, *opts)
    if j:
        m = j["machine"]
        check((m["name"], m["row_p"], m["g"], m["l"]) == expect, f"preset {opts}: {m}")
for opts in (["--machine", "SGI"], ["--machine", "Cray"], ["--machine", "VAX"], ["--g", "1"], ["--machine-p", "4"],
             ["--topology", "torus"], ["--word-bytes", "0"], ["--bogus"]):
    r = run([bsp_check, "show", *opts, t])
    check(r.returncode == 2 and r.stderr, f"show {opts}: exit {r.returncode}, expected 2")
r = run([bsp_check, "show", "--list-machines"])
lst = r.stdout.decode()
check(r.returncode == 0 and all(m in lst for m in ["SGI Origin 2000", "Cray T3E", "IBM SP2", "Cray T3D", "Sparc-20 SMP",
                                                    "Pentium Pro NOW", "SGI PowerChallenge"]), f"--list-machines: {lst[:300]}")
check(sum(1 for l in lst.splitlines() if l[:1].isalpha() and l.split()[-1][0].isdigit()) == 28, "--list-machines: 28 rows")
print("ok: presets")

# 5. Bad traces exit 2 with the reader's message; a trace cut at a record boundary is shown.
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
    for opts in ([], ["--json"]):
        r = run([bsp_check, "show", *opts, path])
        check(r.returncode == 2 and reason in r.stderr and r.stderr.startswith(b"bsp-check: error: "),
              f"bad trace {name} {opts}: exit {r.returncode}, {r.stderr[-300:]}")
# Cut inside a record: refused (truncated); cut at a record boundary: shown as cut off.
codes = set()
for k in range(6, 14):
    path = os.path.join(work, f"cut-{k}.trace")
    open(path, "wb").write(good[:-k])
    r = run([bsp_check, "show", path])
    codes.add(r.returncode)
    check(r.returncode == 0 and b"cut off" in r.stdout or r.returncode == 2 and b"truncated" in r.stderr,
          f"cut {k} bytes: exit {r.returncode}: {r.stderr[-300:]}")
check(2 in codes, "no cut inside a record was refused")
r = run([bsp_check, "show", os.path.join(work, "no-such.trace")])
check(r.returncode == 2 and b"cannot read" in r.stderr, f"missing trace: {r.returncode} {r.stderr}")
r = run([bsp_check, "show"])
check(r.returncode == 2, "no trace: exit 2")
cut = os.path.join(work, "cut.trace")
open(cut, "wb").write(good[:-5])  # without the end record (tag and checksum)
j = show(cut)
if j:
    check(not j["complete"] and j["supersteps"][-1]["ends"] == "cut", f"cut trace: {j['complete']} {j['supersteps'][-1]['ends']}")
    check(len(j["supersteps"]) == 5, "cut trace: superstep count")
r = run([bsp_check, "show", cut])
check(r.returncode == 0 and b"cut off" in r.stdout, "cut trace: text does not say cut off")
print("ok: bad traces")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("all ok")
