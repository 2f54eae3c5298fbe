#!/usr/bin/env python3
"""Per-process globals, end to end: every BSP process must behave as a separate OS process.

globals:        C globals, statics, static locals, thread-locals, errno, strtok and rand per
                process, and puts into a registered global reaching the target's own copy; each
                process's rand values are compared with a separate OS process (rand_reference).
static_objects: C++ static objects constructed and destroyed once per process.
init_style:     a bsp_init program: what processes 1..p-1 see of main's globals.
init_objects:   a bsp_init program's C++ static objects (and their heap blocks) are per process.
init_heap:      a heap block main allocated before bsp_init is shared, and noted.
shared_library: a global of a shared library the program loads cannot be private: global-shared.
buffered_crash: text a process wrote without a newline survives its crash.
With BSPCHECK_OPTIONS=globals=shared the same programs must show the sharing (so the checks
above can fail), and `bsp-check run` over many seeds and p must pass (identical output).
"""
import argparse
import os
import re
import subprocess
import sys

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def direct(prog, procs, seed, extra=""):
    env = dict(os.environ, BSPCHECK_OPTIONS=f"procs={procs}:seed={seed}{extra}")
    return subprocess.run([prog], env=env, capture_output=True, text=True, timeout=120)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bsp-check", required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--reference", required=True)
    a = ap.parse_args()
    globals_prog = os.path.join(a.bin, "globals")
    objects_prog = os.path.join(a.bin, "static_objects")
    crash_prog = os.path.join(a.bin, "buffered_crash")

    reference = {}
    for pid in range(8):
        out = subprocess.run([a.reference, str(pid)], capture_output=True, text=True, check=True).stdout.split()
        reference[pid] = (int(out[0]), int(out[1]))

    line_re = re.compile(r"process (\d+): (\w+) .* rand=(-?\d+) second=(-?\d+) token=(\S+)")
    for p in range(1, 9):
        for seed in (1, 2, 3, 17):
            r = direct(globals_prog, p, seed)
            check(r.returncode == 0, f"globals p={p} seed={seed}: exit {r.returncode}\n{r.stderr}")
            seen = set()
            for line in r.stdout.splitlines():
                m = line_re.search(line)
                if not m:
                    continue
                pid = int(m.group(1))
                seen.add(pid)
                check(m.group(2) == "own", f"globals p={p} seed={seed}: {line}")
                check((int(m.group(3)), int(m.group(4))) == reference[pid],
                      f"globals p={p} seed={seed}: process {pid} rand {m.group(3)} {m.group(4)}, "
                      f"a separate process prints {reference[pid]}")
                check(m.group(5) == "b", f"globals p={p} seed={seed}: strtok continued with {m.group(5)}")
            check(seen == set(range(p)), f"globals p={p} seed={seed}: lines from {sorted(seen)}")

    # Shared globals (the old behaviour, still selectable): the same program sees the sharing.
    r = direct(globals_prog, 4, 1, ":globals=shared")
    check("SHARED" in r.stdout, "globals=shared: the processes did not see each other's globals")
    # ... and rule global-shared names a variable two processes wrote in one superstep.
    check(r.returncode == 1 and re.search(r"error\[global-shared\]: .*both wrote `(counter|initialised|file_static)`",
                                          r.stderr) is not None,
          f"globals=shared: no global-shared finding naming a global:\n{r.stderr}")
    check("globals=shared" in r.stderr, "globals=shared: the reproduce line lacks the option")
    r = direct(globals_prog, 4, 1)
    check("global-shared" not in r.stderr, f"private globals: a global-shared finding:\n{r.stderr}")

    # A shared library's global cannot be private: global-shared names it and its library.
    lib_prog = os.path.join(a.bin, "shared_library")
    r = direct(lib_prog, 3, 1)
    check(r.returncode == 1 and re.search(r"error\[global-shared\]: .*both wrote `lib_counter`.*libcounter\.so",
                                          r.stderr) is not None,
          f"shared library: no global-shared finding naming lib_counter:\n{r.stderr}")
    r = direct(lib_prog, 1, 1)
    check(r.returncode == 0 and "global-shared" not in r.stderr, f"shared library at p=1: {r.stderr}")
    r = direct(globals_prog, 4, 1, ":globals=bogus")
    check(r.returncode == 2 and "globals" in r.stderr, f"globals=bogus: exit {r.returncode}, {r.stderr!r}")

    for p in (1, 2, 5, 8):
        r = direct(objects_prog, p, 5)
        check(r.returncode == 0, f"static_objects p={p}: exit {r.returncode}\n{r.stderr}")
        own = [l for l in r.stdout.splitlines() if re.match(r"process \d+ own history", l)]
        check(len(own) == p, f"static_objects p={p}: {len(own)} processes own their objects:\n{r.stdout}")
        dtors = r.stdout.count("destructor of a Counted, count 1")
        check(dtors == p, f"static_objects p={p}: {dtors} destructor runs, expected one per process")

    r = direct(crash_prog, 3, 1)
    check(r.returncode != 0, "buffered_crash: the crash was not reported")
    check("partial output of process 1" in r.stdout + r.stderr, f"buffered_crash: output lost:\n{r.stdout}\n{r.stderr}")
    check("crash" in r.stderr, f"buffered_crash: no crash finding:\n{r.stderr}")
    # Located at the crashing line, with its stack symbolised: the program's function, file and line.
    check(re.search(r"#\d main at .*buffered_crash\.c:12$", r.stderr, re.M) is not None,
          f"buffered_crash: the stack does not name main at buffered_crash.c:12:\n{r.stderr}")

    # bsp_init style: processes 1..p-1 start from the globals of the bsp_init call.
    r = direct(os.path.join(a.bin, "init_style"), 4, 2)
    sizes = dict(re.findall(r"process (\d+): problem_size (\d+)", r.stdout))
    check(r.returncode == 0 and sizes == {"0": "99", "1": "10", "2": "10", "3": "10"},
          f"init_style: {sizes} (exit {r.returncode})")
    check("changed `problem_size` after bsp_init" in r.stderr, f"init_style: no note naming problem_size:\n{r.stderr}")

    # bsp_init style with C++ static objects that own heap blocks: each process constructs its own
    # (they were copies of process 0's, sharing its blocks: a double free when two vectors grew),
    # and the count main set from argv before bsp_init reaches them all.
    for p, seed in ((2, 1), (4, 2), (7, 3)):
        r = subprocess.run([os.path.join(a.bin, "init_objects"), "3"], capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, BSPCHECK_OPTIONS=f"procs={p}:seed={seed}"))
        lines = sorted(re.findall(r"process \d+: .*", r.stdout))
        want = sorted(f"process {k}: rounds 3 history 303 sum {6 + 300 * k} seen 1" for k in range(p))
        check(r.returncode == 0 and lines == want, f"init_objects p={p}: exit {r.returncode}\n{r.stdout}{r.stderr[-1500:]}")
        check("heap memory before bsp_init" not in r.stderr, f"init_objects: a note on main's heap pointers:\n{r.stderr}")
    # A heap block main allocated before bsp_init is shared (its pointer is main's value): noted.
    r = direct(os.path.join(a.bin, "init_heap"), 3, 1)
    check(r.returncode == 0 and r.stderr.count("note: main pointed `work` at heap memory before bsp_init") == 1,
          f"init_heap: no note naming work (exit {r.returncode}):\n{r.stderr}")

    # The driver's --globals reaches the program and its reproduce command.
    r = subprocess.run([a.bsp_check, "run", "-p", "3", "--seeds", "3", "--globals", "shared", globals_prog],
                       capture_output=True, text=True, timeout=600)
    out = r.stdout + r.stderr
    check(r.returncode == 1 and "global-shared" in out and "--globals shared" in out,
          f"bsp-check run --globals shared: exit {r.returncode}\n{out}")

    for prog in (globals_prog, objects_prog):
        r = subprocess.run([a.bsp_check, "run", "-p", "1-8", "--seeds", "15", prog], capture_output=True, text=True,
                           timeout=600)
        check(r.returncode == 0, f"bsp-check run {os.path.basename(prog)}: exit {r.returncode}\n{r.stdout}\n{r.stderr}")

    if failures:
        print(f"{len(failures)} failed")
        return 1
    print("privatization: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
