#!/usr/bin/env python3
"""End-to-end driver for the example programs (stdlib only).

Subcommands:
  sweep   run an example under `bsp-check run` for every p in a list and many seeds, and check
          that the output is exactly what the example must print (computed here independently)
  direct  run an example directly with BSPCHECK_OPTIONS=seed=S:procs=P and check its output
  fails   run a program that must fail (bad input or a real bug) and check how bsp-check reports it
  buggy   check that bsp-check finds a nondeterministic bug: some seeds fail, some pass, the
          multi-seed run reports a failing seed, and that seed reproduces bit for bit

Every example prints lines that name the printing process, so output can be checked with or
without the `--prefix` that bsp-check adds.
"""

import argparse
import bisect
import collections
import json
import os
import re
import subprocess
import sys

PREFIX = "[%p] "
PREFIX_RE = re.compile(r"^\[(\d+)\] (.*)$")
TIMEOUT = 600


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


# --------------------------------------------------------------------------------------------
# Expected output of each example, for p granted processes. Each returns a list of (pid, line).
# --------------------------------------------------------------------------------------------


def exp_hello(p, args, stdin):
    return [(s, f"Hello BSP Worldwide from process {s} of {p}") for s in range(p)]


def exp_hello_init(p, args, stdin):
    # p here is the number of processors available; hello_init requests args[0] (or all).
    requested = int(args[0]) if args else p
    granted = min(requested, p)
    return [
        # Only process 0 ran main past bsp_init; the others see the global as it was then (0).
        (s, f"Hello BSP Worldwide from process {s} of {granted} (requested {requested if s == 0 else 0})")
        for s in range(granted)
    ]


def exp_reverse(p, args, stdin):
    out = []
    for s in range(p):
        x = 100 * s + 7
        once = 100 * (p - 1 - s) + 7
        out.append((s, f"reverse: pid {s} x {x} once {once} twice {x}"))
    return out


def exp_put_array(p, args, stdin):
    m = int(args[0]) if args else 4
    n = p * m
    a = 3
    while gcd(a, n) != 1:
        a += 2
    assert len({(a * g + 3) % n for g in range(n)}) == n  # a permutation
    out = []
    for s in range(p):
        before = [(a * (s * m + i) + 3) % n for i in range(m)]
        after = [s * m + i for i in range(m)]
        out.append((s, f"put_array: pid {s} before " + " ".join(map(str, before))))
        out.append((s, f"put_array: pid {s} after " + " ".join(map(str, after))))
    return out


def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def exp_bsp_sum(p, args, stdin):
    l1 = [sum(10 * s + j for j in range(s + 1)) for s in range(p)]
    l2 = [s * s - s + 1 for s in range(p)]
    t1, t2 = sum(l1), sum(l2)
    return [(s, f"bsp_sum: pid {s} local {l1[s]} {l2[s]} total {t1} {t2}") for s in range(p)]


def exp_sparse(p, args, stdin):
    m = int(args[0]) if args else 5
    nz = [g for g in range(p * m) if g % 3 != 1]
    body = "".join(f" {g}:{g}.5" for g in nz)
    out = []
    for s in range(p):
        out.append((s, f"sparse: pid {s} nnz {len(nz)}{body}"))
        out.append((s, f"sparse: pid {s} tagsize restored 0"))
    return out


def exp_bsppermute(p, args, stdin):
    m = int(args[0]) if args else 2 * p
    n = p * m
    x = list(range(n))  # global vector of real parts
    rounds = [x]
    for _ in range(2):
        old = rounds[-1]
        new = [None] * n
        for s in range(p):
            for j in range(m):
                new[j * p + s] = old[s * m + j]
        rounds.append(new)
    out = []
    for r, vec in enumerate(rounds):
        for s in range(p):
            vals = " ".join(str(v) for v in vec[s * m:(s + 1) * m])
            out.append((s, f"permute: pid {s} round {r} {vals}"))
    return out


M64 = (1 << 64) - 1


def exp_samplesort(p, args, stdin):
    a_size = int(args[0]) if len(args) > 0 else 64
    r = int(args[1]) if len(args) > 1 else 8
    keys, samples = [], []
    for s in range(p):
        state = ((s + 1) * 0x9E3779B97F4A7C15) & M64

        def draw():
            nonlocal state
            state = (state * 6364136223846793005 + 1442695040888963407) & M64
            return state >> 33

        a = [draw() % 1000000 for _ in range(a_size)]
        keys.extend(a)
        samples.extend(a[draw() % a_size] for _ in range(r))
    samples.sort()
    splitters = [samples[k * r - 1] for k in range(1, p)]
    buckets = [[] for _ in range(p)]
    for k in keys:
        buckets[bisect.bisect_right(splitters, k)].append(k)
    out = []
    for s, b in enumerate(buckets):
        if b:
            out.append((s, f"samplesort: pid {s} count {len(b)} min {min(b)} max {max(b)} sum {sum(b)}"))
        else:
            out.append((s, f"samplesort: pid {s} count 0 min - max - sum 0"))
    out.append((0, f"samplesort: n {a_size * p} p {p} ordered yes checksum {sum(keys)}"))
    return out


def exp_inprod(p, args, stdin):
    tokens = stdin.split()
    P, n = int(tokens[0]), int(tokens[1])
    q = P if 1 <= P <= p else p
    total = n * (n + 1) * (2 * n + 1) // 6
    out = []
    for s in range(q):
        nl = (n + q - s - 1) // q
        local = sum((i * q + s + 1) ** 2 for i in range(nl))
        out.append((s, f"inprod: pid {s} of {q} n {n} nlocal {nl} local {local} total {total}"))
    out.append((0, f"inprod: n {n} exact {total} match yes"))
    return out


def exp_ring_hp(p, args, stdin):
    nloc, steps = 3, 2
    n = p * nloc
    u = [g + 1 for g in range(n)]
    for _ in range(steps):
        u = [u[(g - 1) % n] + u[(g + 1) % n] for g in range(n)]
    out = []
    for s in range(p):
        left = (s - 1) % p
        received = " ".join(str(100 * left + t) for t in range(steps))
        cells = " ".join(map(str, u[s * nloc:(s + 1) * nloc]))
        out.append((s, f"ring: pid {s} received {received} cells {cells}"))
    return out


EXPECT = {
    "hello": exp_hello,
    "hello_init": exp_hello_init,
    "reverse": exp_reverse,
    "put_array": exp_put_array,
    "bsp_sum": exp_bsp_sum,
    "all_gather_sparse_vec": exp_sparse,
    "bsppermute": exp_bsppermute,
    "samplesort": exp_samplesort,
    "inprod": exp_inprod,
    "ring_hp": exp_ring_hp,
}

# --------------------------------------------------------------------------------------------


def parse_procs(spec):
    out = []
    for part in spec.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            out.extend(range(int(lo), int(hi) + 1))
        else:
            out.append(int(part))
    return out


def run(cmd, stdin="", env=None):
    e = dict(os.environ)
    e.pop("BSPCHECK_OPTIONS", None)
    if env:
        e.update(env)
    return subprocess.run(
        cmd, input=stdin.encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e,
        timeout=TIMEOUT,
    )


def describe(cmd, res):
    so = res.stdout.decode(errors="replace")
    se = res.stderr.decode(errors="replace")
    return (f"command: {' '.join(cmd)}\nexit status: {res.returncode}\n"
            f"--- stdout (first 3000 chars) ---\n{so[:3000]}\n"
            f"--- stderr (first 3000 chars) ---\n{se[:3000]}")


def walk_dicts(node):
    """Every dict inside a parsed JSON document."""
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from walk_dicts(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk_dicts(v)


def strip_timing(data):
    """bsp-check's summary line may say how long the runs took; nothing else may differ."""
    return re.sub(rb" in [0-9.]+ ?m?s\b", b" in <time>", data)


def prefixed_lines(text):
    """(pid, line) for every line carrying the --prefix; other lines are bsp-check's own."""
    out = []
    for raw in text.splitlines():
        m = PREFIX_RE.match(raw)
        if m:
            out.append((int(m.group(1)), m.group(2)))
    return out


def compare_multisets(got, want, what):
    g, w = collections.Counter(got), collections.Counter(want)
    if g == w:
        return
    missing = list((w - g).items())[:10]
    extra = list((g - w).items())[:10]
    raise Failure(f"{what}: output differs from the expected\n"
                  f"  missing (line, times): {missing}\n  unexpected (line, times): {extra}")


def cmd_sweep(a):
    expect = EXPECT[a.check]
    procs = parse_procs(a.procs)
    # -v: show every run's output, not only that of failing runs.
    base = [a.bsp_check, "run", "-v"]

    # 1. Each p on its own, many seeds: exit 0 and exactly nseeds copies of the expected lines,
    #    every line attributed (by the prefix) to the process that the line itself names.
    for p in procs:
        cmd = base + ["-p", str(p), "--seed", str(a.seed), "--seeds", str(a.seeds),
                      "--prefix", PREFIX, a.program] + a.args
        res = run(cmd, a.stdin)
        ctx = describe(cmd, res)
        check(res.returncode == 0, f"p={p}: expected exit 0\n{ctx}")
        got = prefixed_lines(res.stdout.decode(errors="replace"))
        want = expect(p, a.args, a.stdin) * a.seeds
        try:
            compare_multisets(got, want, f"p={p}, {a.seeds} seeds from {a.seed}")
        except Failure as f:
            raise Failure(f"{f}\n{ctx}")
        print(f"ok: p={p} seeds {a.seed}..{a.seed + a.seeds - 1}: {len(got)} lines as expected")

    # 2. The whole range in one invocation, as a CI job would run it.
    spec = a.procs
    cmd = base + ["-p", spec, "--seeds", str(a.seeds), "--prefix", PREFIX, a.program] + a.args
    res = run(cmd, a.stdin)
    ctx = describe(cmd, res)
    check(res.returncode == 0, f"range {spec}: expected exit 0\n{ctx}")
    got = prefixed_lines(res.stdout.decode(errors="replace"))
    want = []
    for p in procs:
        want += expect(p, a.args, a.stdin) * a.seeds
    try:
        compare_multisets(got, want, f"-p {spec} --seeds {a.seeds}")
    except Failure as f:
        raise Failure(f"{f}\n{ctx}")
    print(f"ok: -p {spec} --seeds {a.seeds}: {len(got)} lines as expected")

    # 3. A seed reproduces its run bit for bit.
    p = procs[len(procs) // 2]
    cmd = base + ["-p", str(p), "--seed", "987654321", "--prefix", PREFIX, a.program] + a.args
    r1, r2 = run(cmd, a.stdin), run(cmd, a.stdin)
    check(r1.returncode == 0 and r2.returncode == 0, f"reproduction runs failed\n{describe(cmd, r1)}")
    check(r1.stdout == r2.stdout, f"same seed, different output\n{describe(cmd, r1)}\n{describe(cmd, r2)}")
    print(f"ok: p={p} seed 987654321 reproduces its output bit for bit")


def cmd_direct(a):
    expect = EXPECT[a.check]
    env = {"BSPCHECK_OPTIONS": f"seed={a.seed}:procs={a.procs}"}
    cmd = [a.program] + a.args
    res = run(cmd, a.stdin, env)
    ctx = f"BSPCHECK_OPTIONS={env['BSPCHECK_OPTIONS']}\n" + describe(cmd, res)
    check(res.returncode == 0, f"expected exit 0\n{ctx}")
    got = res.stdout.decode(errors="replace").splitlines()
    want = [line for _, line in expect(int(a.procs), a.args, a.stdin)]
    try:
        compare_multisets(got, want, "direct run")
    except Failure as f:
        raise Failure(f"{f}\n{ctx}")
    # And again: the same options give the same output, byte for byte.
    res2 = run(cmd, a.stdin, env)
    check(res2.stdout == res.stdout, f"direct run with the same seed printed something else\n{ctx}")
    print(f"ok: direct run, {len(got)} lines as expected")


def cmd_fails(a):
    cmd = [a.bsp_check, "run", "-p", a.procs, "--seed", str(a.seed), a.program] + a.args
    res = run(cmd, a.stdin)
    ctx = describe(cmd, res)
    check(res.returncode == 1, f"expected exit 1 (program failed)\n{ctx}")
    text = (res.stdout + res.stderr).decode(errors="replace")
    for needle in a.expect:
        check(re.search(needle, text, re.IGNORECASE), f"output does not match /{needle}/\n{ctx}")
    print(f"ok: failed as expected, output matches {a.expect}")


def cmd_buggy(a):
    # 0. The checker names the hazard on every seed, at the bsp_hpget whose source is modified.
    name = os.path.basename(a.program)
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "buggy", name + ".c")
    with open(source, encoding="utf-8") as fh:
        hp_line = next(i for i, l in enumerate(fh, 1) if re.match(r"\s*bsp_hpget\(", l))
    json_path = os.path.join(a.workdir, f"buggy-hp-{os.getpid()}.json")
    cmd = [a.bsp_check, "run", "-p", a.procs, "--seed", str(a.seed), "--seeds", str(a.seeds), "--keep-going",
           "--json", json_path, a.program] + a.args
    res = run(cmd)
    check(res.returncode == 1, f"the checker did not fail the buggy program\n{describe(cmd, res)}")
    with open(json_path, encoding="utf-8") as fh:
        runs = json.load(fh)["runs"]
    os.unlink(json_path)
    check(len(runs) == a.seeds, f"expected {a.seeds} runs, got {len(runs)}")
    for r in runs:
        hits = [f for f in r["findings"] if f["rule"] == "hp-src-modified" and f["severity"] == "error"
                and any(l["file"].endswith(name + ".c") and l["line"] == hp_line for l in f["locations"])]
        check(hits, f"seed {r['seed']}: no hp-src-modified error at {name}.c:{hp_line}: {r['findings']}")
    print(f"ok: hp-src-modified at {name}.c:{hp_line} on all {a.seeds} seeds")

    # With that rule off, the program's own check shows the bug is schedule-dependent.
    base = [a.bsp_check, "run", "--disable", "hp-src-modified", "-p", a.procs]

    # 1. Seed by seed: the bug shows under some seeds, not all.
    outcome = {}
    for s in range(a.seed, a.seed + a.seeds):
        res = run(base + ["--seed", str(s), a.program] + a.args)
        check(res.returncode in (0, 1), f"seed {s}: unexpected exit\n{describe(base, res)}")
        outcome[s] = res.returncode
    failing = [s for s, rc in outcome.items() if rc == 1]
    passing = [s for s, rc in outcome.items() if rc == 0]
    print(f"seeds {a.seed}..{a.seed + a.seeds - 1}: failing {failing}, passing {passing}")
    check(failing, f"the bug was not found in {a.seeds} seeds")
    check(passing, f"every seed failed: the bug is not schedule-dependent as it should be")

    # 2. A failing seed reports the abort and reproduces bit for bit.
    s = failing[0]
    cmd = base + ["--seed", str(s), "--prefix", PREFIX, a.program] + a.args
    r1, r2 = run(cmd), run(cmd)
    ctx = describe(cmd, r1)
    check(r1.returncode == 1 and r2.returncode == 1, f"seed {s} did not fail twice\n{ctx}")
    text = (r1.stdout + r1.stderr).decode(errors="replace")
    check(re.search(r"abort", text, re.IGNORECASE), f"the report does not mention the abort\n{ctx}")
    for needle in a.expect:
        check(re.search(needle, text, re.IGNORECASE), f"output does not match /{needle}/\n{ctx}")
    check(r1.stdout == r2.stdout, f"seed {s} gave different stdout on a rerun\n{ctx}\n{describe(cmd, r2)}")
    check(strip_timing(r1.stderr) == strip_timing(r2.stderr),
          f"seed {s} gave different stderr on a rerun\n{ctx}\n{describe(cmd, r2)}")
    print(f"ok: seed {s} fails, mentions the abort, and reproduces bit for bit")

    # 2b. The JSON report names the abort, at the failing seed.
    json_path = os.path.join(a.workdir, f"buggy-{os.getpid()}.json")
    cmd = base + ["--seed", str(s), "--json", json_path, a.program] + a.args
    res = run(cmd)
    check(res.returncode == 1, f"--json run did not fail\n{describe(cmd, res)}")
    with open(json_path, encoding="utf-8") as fh:
        report = json.load(fh)
    os.unlink(json_path)
    aborts = [f for f in walk_dicts(report) if f.get("rule") == "abort"]
    check(aborts, f"the JSON report has no finding with rule 'abort': {json.dumps(report)[:2000]}")
    print(f"ok: the JSON report has {len(aborts)} 'abort' finding(s)")

    # 2c. The program run directly with the same seed behaves the same as under the CLI.
    for seed, rc in ((s, 1), (passing[0], 0)):
        env = {"BSPCHECK_OPTIONS": f"seed={seed}:procs={a.procs}:disable=hp-src-modified"}
        res = run([a.program] + a.args, env=env)
        check(res.returncode == rc, f"direct run with seed {seed}: exit {res.returncode}, "
              f"expected {rc} as under bsp-check\n{describe([a.program], res)}")
    print(f"ok: direct runs with seeds {s} and {passing[0]} fail and pass as under bsp-check")

    # 3. A passing seed passes again (no hidden global state between runs).
    if passing:
        cmd = base + ["--seed", str(passing[0]), a.program] + a.args
        res = run(cmd)
        check(res.returncode == 0, f"passing seed {passing[0]} failed on a rerun\n{describe(cmd, res)}")

    # 4. The multi-seed run stops at the first failing seed and names it.
    cmd = base + ["--seed", str(a.seed), "--seeds", str(a.seeds), a.program] + a.args
    res = run(cmd)
    ctx = describe(cmd, res)
    check(res.returncode == 1, f"--seeds {a.seeds}: expected exit 1\n{ctx}")
    text = (res.stdout + res.stderr).decode(errors="replace")
    check(re.search(r"abort", text, re.IGNORECASE), f"--seeds run does not mention the abort\n{ctx}")
    check(re.search(rf"\b{failing[0]}\b", text), f"--seeds run does not name seed {failing[0]}\n{ctx}")
    print(f"ok: --seeds {a.seeds} reports the failure at seed {failing[0]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("sweep", "direct", "fails", "buggy"):
        sp = sub.add_parser(name)
        sp.add_argument("--bsp-check", default=None)
        sp.add_argument("--program", required=True)
        sp.add_argument("--check", choices=sorted(EXPECT), default=None)
        sp.add_argument("--procs", default="1-8")
        sp.add_argument("--seed", type=int, default=1)
        sp.add_argument("--seeds", type=int, default=25)
        sp.add_argument("--stdin", default="")
        sp.add_argument("--expect", action="append", default=[],
                        help="regex the output must match (fails, buggy)")
        sp.add_argument("--workdir", default=".", help="where to put temporary files")
        sp.add_argument("args", nargs="*", help="arguments for the program (after --)")
    a = ap.parse_args()
    if a.cmd in ("sweep", "direct") and a.check is None:
        ap.error("--check is required")
    if a.cmd != "direct" and a.bsp_check is None:
        ap.error("--bsp-check is required")
    try:
        {"sweep": cmd_sweep, "direct": cmd_direct, "fails": cmd_fails, "buggy": cmd_buggy}[a.cmd](a)
    except Failure as f:
        print(f"FAIL: {f}", file=sys.stderr)
        return 1
    except subprocess.TimeoutExpired as t:
        print(f"FAIL: timed out: {t}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
