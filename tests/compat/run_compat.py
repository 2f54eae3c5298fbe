#!/usr/bin/env python3
"""Builds one compatibility program exactly as its users build it (bspcc, with the dialect's
flag if it has one), runs it under bsp-check for p = 1..8 and many seeds, and compares the output
of every run with the expected output. Lines that report a time are left out of the comparison:
they depend on the clock.

  run_compat.py BSPCC BSP_CHECK SOURCE EXPECTED WORKDIR [--dialect=NAME] [--seeds N]
                [--extra-flag=FLAG]

The program reads the number of processors to use from standard input (BSPedupack style): each
p gets its own bsp-check invocation with p on standard input. bsp-check compares every line
across seeds, timings included (virtual bsp_time is the same under every schedule); this script
leaves timing lines out of its comparison with the expected output, whose times came from another
clock."""
import argparse
import os
import re
import subprocess
import sys

TIMING = re.compile(r"\b(took|Time of|sec|seconds|Mflop/s|flops)\b")
HEADER = re.compile(r"^==== p=(\d+) seed=(\d+): (\S+) ====$")


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def comparable(lines):
    # bsp-check's own notes (e.g. on globals process 0 changed after bsp_init, which these
    # programs pass on with bsp_begin's argument only) are not the program's output.
    return [line for line in lines if not TIMING.search(line) and not line.startswith("bsp-check: note:")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bspcc")
    ap.add_argument("bsp_check")
    ap.add_argument("source")
    ap.add_argument("expected")
    ap.add_argument("workdir")
    ap.add_argument("--dialect", default=None)
    ap.add_argument("--seeds", type=int, default=25)
    ap.add_argument("--procs", default="1-8")
    ap.add_argument("--extra-flag", action="append", default=[],
                    help="a compiler flag the build needs besides the users' (a sanitizer build's)")
    a = ap.parse_args()

    os.makedirs(a.workdir, exist_ok=True)
    exe = os.path.join(a.workdir, os.path.splitext(os.path.basename(a.source))[0])
    # Exactly the users' command line: bspcc [--dialect=NAME] -O2 prog.c -o prog -lm
    build = [a.bspcc] + (["--dialect=" + a.dialect] if a.dialect else []) + ["-O2", a.source, "-o", exe, "-lm"] + a.extra_flag
    b = subprocess.run(build, capture_output=True, text=True)
    if b.returncode != 0:
        fail("build failed: " + " ".join(build) + "\n" + b.stderr)
    with open(a.expected) as f:
        expected = comparable(f.read().splitlines())

    lo, hi = (int(x) for x in a.procs.split("-"))
    runs = 0
    for p in range(lo, hi + 1):
        cmd = [a.bsp_check, "run", "-v", "-q", "-p", str(p), "--seeds", str(a.seeds)]
        cmd.append(exe)
        # The run headers go to standard error, the program's output to standard output: one pipe
        # keeps them in order.
        r = subprocess.run(cmd, input="%d\n" % p, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           cwd=a.workdir)
        if r.returncode != 0:
            fail("p=%d: bsp-check exit status %d (expected 0)\n%s" % (p, r.returncode, r.stdout))
        sections = {}
        current = None
        for line in r.stdout.splitlines():
            m = HEADER.match(line)
            if m:
                current = (int(m.group(1)), int(m.group(2)))
                if m.group(3) != "ok":
                    fail("p=%d seed=%s: %s\n%s" % (p, m.group(2), m.group(3), r.stdout))
                sections[current] = []
            elif current is not None:
                sections[current].append(line)
        if len(sections) != a.seeds:
            fail("p=%d: %d runs shown, expected %d\n%s" % (p, len(sections), a.seeds, r.stdout))
        for (rp, seed), lines in sorted(sections.items()):
            got = comparable(lines)
            if got != expected:
                fail("p=%d seed=%d: output differs from %s\n--- expected\n%s\n--- got\n%s" %
                     (rp, seed, a.expected, "\n".join(expected), "\n".join(got)))
            runs += 1
    print("ok: %s%s: %d runs (p = %s, %d seeds each) match %s" %
          (os.path.basename(a.source), " --dialect=" + a.dialect if a.dialect else "", runs, a.procs, a.seeds,
           os.path.basename(a.expected)))


if __name__ == "__main__":
    main()
