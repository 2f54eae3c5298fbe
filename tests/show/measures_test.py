#!/usr/bin/env python3
"""bsp-check show's measures of the seed papers, with hand-checked numbers on small programs
(tests/show/programs): cBSP's Table 3 column (is each receiver's incoming message count known,
i.e. the same in every run of a p), the supersteps that ended without a global barrier and how
far processes ran ahead, and measured work (--measure-work) beside h and the BSP cost.

usage: measures_test.py BSP_CHECK BSPCC PROGRAMS_DIR EXAMPLES_DIR [CFLAGS]"""
import json
import os
import subprocess
import sys
import tempfile

bsp_check, bspcc, programs, examples = sys.argv[1:5]
cflags = sys.argv[5].split() if len(sys.argv) > 5 else []
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def bsp(*args):
    p = subprocess.run([bsp_check, *args], capture_output=True, timeout=600)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def show_json(*args):
    status, out, err = bsp("show", "--json", *args)
    check(status == 0, f"show --json {args}: exit {status}: {err[-400:]}")
    return json.loads(out) if status == 0 else None


with tempfile.TemporaryDirectory() as work:
    exe = {}
    for name in ("counts", "ahead", "work"):
        exe[name] = os.path.join(work, name)
        subprocess.run([bspcc, *cflags, os.path.join(programs, name + ".c"), "-o", exe[name]], check=True)

    def record(prog, p, seed, *args, extra=()):
        t = os.path.join(work, f"{os.path.basename(prog)}-p{p}-s{seed}-{'-'.join(args) or 'x'}.trace")
        status, out, err = bsp("run", "-p", str(p), "--seed", str(seed), "--trace", t, *extra, prog, *args)
        return status, t, out + err

    # --- counting synchronisation (cBSP Table 3) ---------------------------------------------
    runs = {}
    for p, seed, n in ((3, 1, "1"), (3, 2, "1"), (3, 1, "2"), (4, 5, "1")):
        status, t, out = record(exe["counts"], p, seed, n)
        check(status == 0, f"counts p={p} n={n}: exit {status}: {out[-400:]}")
        runs[(p, seed, n)] = t
    same = [runs[(3, 1, "1")], runs[(3, 2, "1")]]
    j = show_json(*same)
    if j:
        c = j["counting"]
        check(c["runs"] == 2 and c["supersteps"] == 3 and c["known_supersteps"] == 3 and c["known_share"] == 1.0,
              f"two seeds, same input: every count known: {c}")
        counts = [s["groups"][0]["counts"] for s in c["steps"]]
        check(counts == [[1, 1, 1], [0 + 2 * 1, 0, 0], [0, 0, 0]], f"hand counts p=3 n=1: {counts}")
        check([s["ends"] for s in j["supersteps"]] == ["local", "sync", "end"], f"ends: {[s['ends'] for s in j['supersteps']]}")
        check(j["local_supersteps"] is True, "cBSP program: local supersteps")
        # count_in per receiver equals the messages it receives (every message is addressed)
        for s in j["supersteps"]:
            check([q["count_in"] for q in s["processes"]] == [q["messages_in"] for q in s["processes"]],
                  f"count_in != messages_in in superstep {s['index']}")
    j = show_json(*runs.values())
    if j:
        c = j["counting"]
        check(c["runs"] == 4 and c["known_supersteps"] == 2 and abs(c["known_share"] - 2 / 3) < 1e-9,
              f"n = 1 and 2: superstep 1 not known: {c}")
        s1 = c["steps"][1]
        g3 = [g for g in s1["groups"] if g["p"] == 3][0]
        g4 = [g for g in s1["groups"] if g["p"] == 4][0]
        check(not s1["known"] and not g3["known"] and g3["unknown_receivers"] == [0] and g3["runs"] == 3,
              f"p = 3: receiver 0 of superstep 1 differs: {g3}")
        check(g4["known"] and g4["counts"] == [3, 0, 0, 0], f"p = 4 (one run): counts 3 0 0 0: {g4}")
        g40 = [g for g in c["steps"][0]["groups"] if g["p"] == 4][0]
        check(g40["counts"] == [1, 1, 1, 1], f"p = 4 superstep 0: {g40}")
    status, out, err = bsp("show", *runs.values())
    check(status == 0 and "2 of 3 supersteps (67%)" in out and "superstep 1: not known; p = 3: receiver 0 differ" in out,
          f"text: {out[-900:]}")
    # One session records a trace per run (--trace with %p and %s): no run recorded by hand.
    pattern = os.path.join(work, "pattern", "counts-p%p-s%s.trace")
    os.makedirs(os.path.dirname(pattern))
    status, out, err = bsp("run", "-p", "3-4", "--seeds", "2", "--trace", pattern, exe["counts"], "1")
    kept = sorted(os.listdir(os.path.dirname(pattern)))
    check(status == 0 and kept == ["counts-p3-s1.trace", "counts-p3-s2.trace", "counts-p4-s1.trace", "counts-p4-s2.trace"],
          f"--trace with %p and %s: exit {status}, traces {kept}: {err[-400:]}")
    j = show_json(*[os.path.join(os.path.dirname(pattern), t) for t in kept])
    if j:
        c = j["counting"]
        check(c["runs"] == 4 and c["known_share"] == 1.0, f"four recorded runs, one input: every count known: {c}")
    status, out, err = bsp("run", "-p", "3-4", "--seeds", "2", "--trace", os.path.join(work, "one.trace"), exe["counts"], "1")
    check(status == 2 and "%p" in err, f"--trace without a pattern over several runs: exit {status}: {err}")

    # Traces of another program are refused.
    status, other, _ = record(exe["ahead"], 2, 1)
    status, out, err = bsp("show", runs[(3, 1, "1")], other)
    check(status == 2 and "one program" in err, f"traces of two programs: exit {status}: {err}")

    # A classic BSPlib program: which supersteps could use counting synchronisation.
    rev = [record(os.path.join(examples, "reverse"), 4, s)[1] for s in (1, 2, 3)]
    j = show_json(*rev)
    if j:
        c = j["counting"]
        check(c["known_supersteps"] == c["supersteps"] and j["local_supersteps"] is False and j["max_ahead"] == 0,
              f"reverse: counts known, no run-ahead: {c}, ahead {j['max_ahead']}")
        check(all(s["ends"] in ("sync", "end") for s in j["supersteps"]), "reverse: barriers only")

    # --- run-ahead ------------------------------------------------------------------------------
    for seed in (1, 2, 3):
        status, t, out = record(exe["ahead"], 2, seed)
        check(status == 1 and "cbsp-count-excess" in out, f"ahead: the deadlock: exit {status}: {out[-400:]}")
        j = show_json(t)
        if j:
            check(j["max_ahead"] == 3, f"ahead seed {seed}: process 1 is 3 supersteps ahead: {j['max_ahead']}")
            check(j["supersteps"][0]["ahead"] == 3, f"ahead: superstep 0's ahead {j['supersteps'][0]['ahead']}")
            check([s["ends"] for s in j["supersteps"]][:3] == ["local"] * 3, f"ahead: ends {[s['ends'] for s in j['supersteps']]}")
    status, out, _ = bsp("show", t)
    check("3 supersteps ended without a global barrier; processes ran up to 3 supersteps ahead" in out, f"ahead text: {out[:900]}")
    # BSPk: the inner product's lazy supersteps (docs/bspk.md: supersteps 1 and 2 announce).
    status, t, out = record(os.path.join(examples, "bspk", "inprod"), 4, 3)
    j = show_json(t)
    if j:
        check([s["ends"] for s in j["supersteps"]] == ["sync", "local", "local", "end"],
              f"inprod ends: {[s['ends'] for s in j['supersteps']]}")
        # superstep 1: process 0 receives the p - 1 stores of the others (its own copy is local)
        check([q["count_in"] for q in j["supersteps"][1]["processes"]] == [3, 0, 0, 0],
              f"inprod superstep 1 counts: {[q['count_in'] for q in j['supersteps'][1]['processes']]}")
        check([q["count_in"] for q in j["supersteps"][2]["processes"]] == [0, 1, 1, 1],
              f"inprod superstep 2 counts: {[q['count_in'] for q in j['supersteps'][2]['processes']]}")

    # --- measured work --------------------------------------------------------------------------
    status, t, out = record(exe["work"], 3, 1, extra=("--measure-work",))
    check(status == 0, f"work: exit {status}: {out[-400:]}")
    status, out, err = bsp("replay", t)
    check(status == 0 and "replay-divergence" not in out + err, f"work: the replay is not clean: {out + err}")
    j = show_json("--work", "measured", "--s", "1000", t)
    if j:
        check(j["measured_work"] is True, "work: measured")
        w0 = [q["work_ns"] for q in j["supersteps"][0]["processes"]]
        w1 = [q["work_ns"] for q in j["supersteps"][1]["processes"]]
        # 10^8 additions take well over 10 ms; the others' supersteps are runtime overhead only.
        check(w0[1] > 10_000_000 and w0[1] > 20 * max(w0[0], w0[2], *w1), f"work: process 1 computes in superstep 0: {w0}, {w1}")
        s0 = j["supersteps"][0]
        check(s0["work_ns"] == max(w0), f"work: the superstep's work is the max: {s0['work_ns']} vs {w0}")
        # s = 1000 Mflop/s: one flop per ns, so w is the work in ns (rounded).
        check(abs(s0["w"] - s0["work_ns"]) <= 1, f"work: w {s0['w']} != work_ns {s0['work_ns']} at 1 flop/ns")
        check(j["totals"]["W"] == sum(s["w"] for s in j["supersteps"]), "work: W is the sum of w")
    status, out, err = bsp("show", t)
    check(status == 0 and "work (us)" in out and "measured work: max" in out, f"work text: {out[:900]}")
    status, out, err = bsp("show", "--work", "measured", t)
    check(status == 2 and "--s or --machine" in err, f"--work measured without s: exit {status}: {err}")
    status, out, err = bsp("show", "--work", "measured", "--s", "100", runs[(3, 1, "1")])
    check(status == 2 and "--measure-work" in err, f"--work measured of a trace without work: exit {status}: {err}")
    # Without --measure-work the trace has no work records.
    j = show_json(runs[(3, 1, "1")])
    if j:
        check(j["measured_work"] is False and j["supersteps"][0]["processes"][0]["work_ns"] is None, "no work records")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("ok")
