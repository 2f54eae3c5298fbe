#!/usr/bin/env python3
"""What a process owns and how it ends, as with separate OS processes (one check per run):

environment:        setenv, putenv and unsetenv of one process are not seen by the others
                    (environment.c, with and without a reference to `environ`), p = 1..4
start_state:        what main does to rand, drand48 and the environment before bsp_begin is done
                    by every process from the program's start, as separate processes do it
                    (start_state.c, in the SPMD and the bsp_init style), p = 1..4
random_state:       initstate and setstate act on the process's own generator: each process
                    prints what a separate process prints (random_state_reference)
unfinished_line:    process 0's line left unfinished at bsp_end is continued after it, not ended
return_without_end: process 0 returning from main before bsp_end is reported as such (and exit()
                    as exit), at its last BSPlib call
end_cleanups:       processes 1..p-1 end at bsp_end as separate processes end their SPMD part: a C
                    cleanup (-fexceptions) runs in every process, a C++ library's destructor too,
                    the library linked in or dlopen'ed by a C executable; a C program built without
                    unwind tables ends cleanly (bsp-check ends its processes without unwinding
                    when no frame can have a cleanup), p = 1..4
thread_locals:      thread-locals (their initial values, their objects' destructors) and errno are
                    each process's own, with private globals and with MulticoreBSP's shared ones
                    (thread_locals.cpp built twice), and with the program's own unwinder
                    (-static-libstdc++ -static-libgcc), also stripped, p = 1..4
"""
import argparse
import os
import re
import subprocess
import sys

failures = []
SEEDS = (1, 2, 3, 17, 40, 99)


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def direct(prog, procs, seed, args=(), env_extra=None):
    env = dict(os.environ, BSPCHECK_OPTIONS=f"procs={procs}:seed={seed}", **(env_extra or {}))
    return subprocess.run([prog, *args], env=env, capture_output=True, text=True, timeout=120)


def process_lines(stdout):
    return {int(m.group(1)): m.group(2) for m in re.finditer(r"^process (\d+): (.*)$", stdout, re.M)}


def check_environment(a):
    for name in ("environment", "environment_environ"):
        prog = os.path.join(a.bin, name)
        for p in (1, 2, 3, 4):
            for seed in SEEDS:
                r = direct(prog, p, seed, env_extra={"BSPCHECK_TEST_VAR": "orig"})
                what = f"{name} p={p} seed={seed}"
                check(r.returncode == 0, f"{what}: exit {r.returncode}\n{r.stderr}")
                lines = process_lines(r.stdout)
                check(sorted(lines) == list(range(p)), f"{what}: lines from {sorted(lines)}\n{r.stdout}")
                for pid, line in lines.items():
                    var = "(unset)" if pid % 2 else f"p{pid}"
                    want = f"RANK={pid} PUT_RANK={pid} VAR={var} own=20 others=0"
                    check(line.startswith(want + " "), f"{what}: process {pid} printed {line!r}, wanted {want!r}")




def check_start_state(a):
    for name in ("start_state", "start_state_init"):
        prog = os.path.join(a.bin, name)
        for p in (1, 2, 3, 4):
            for seed in SEEDS[:3]:
                r = direct(prog, p, seed, env_extra={"START_STATE_LIST": "base"})
                what = f"{name} p={p} seed={seed}"
                check(r.returncode == 0, f"{what}: exit {r.returncode}\n{r.stderr}")
                lines = process_lines(r.stdout)
                check(sorted(lines) == list(range(p)), f"{what}: lines from {sorted(lines)}\n{r.stdout}")
                check(all(line.endswith(" list base:extra") for line in lines.values()),
                      f"{what}: a process did not start from the program's environment: {lines}")
                check(len(set(lines.values())) == 1, f"{what}: the processes started from different states: {lines}")


def check_random_state(a):
    prog = os.path.join(a.bin, "random_state")
    reference = {}
    for pid in range(4):
        out = subprocess.run([a.random_reference, str(pid)], capture_output=True, text=True, check=True).stdout
        reference[pid] = process_lines(out)[pid]
    check(len(set(reference.values())) == 4, f"the reference prints the same for two pids: {reference}")
    for p in (1, 2, 3, 4):
        for seed in SEEDS:
            r = direct(prog, p, seed)
            what = f"random_state p={p} seed={seed}"
            check(r.returncode == 0, f"{what}: exit {r.returncode}\n{r.stderr}")
            lines = process_lines(r.stdout)
            check(sorted(lines) == list(range(p)), f"{what}: lines from {sorted(lines)}")
            for pid, line in lines.items():
                check(line == reference[pid], f"{what}: process {pid} printed {line!r}, a separate process {reference[pid]!r}")




def check_unfinished_line(a):
    prog = os.path.join(a.bin, "unfinished_line")
    r = direct(prog, 1, 1)
    check(r.returncode == 0 and r.stdout == "a0b0\nend\n", f"unfinished_line p=1: printed {r.stdout!r}, wanted 'a0b0\\nend\\n'")
    for p in (2, 3, 4):
        for seed in SEEDS:
            r = direct(prog, p, seed)
            what = f"unfinished_line p={p} seed={seed}"
            check(r.returncode == 0, f"{what}: exit {r.returncode}\n{r.stderr}")
            # Processes 1..p-1 end at bsp_end with their lines; process 0 continues its own.
            check(r.stdout.endswith("a0b0\nend\n"), f"{what}: process 0's line: {r.stdout!r}")
            check(sorted(r.stdout.splitlines()) == sorted([f"a{k}b{k}" for k in range(p)] + ["end"]),
                  f"{what}: lines {r.stdout!r}")




def check_return_without_end(a):
    prog = os.path.join(a.bin, "no_end")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "no_end.c")
    marks = {}
    with open(src) as f:
        for n, text in enumerate(f, 1):
            for mark in ("LAST", "EXIT"):
                if f"/* {mark} */" in text:
                    marks[mark] = n
    for how in ("return", "exit"):
        for p in (1, 3):
            for seed in SEEDS[:3]:
                r = direct(prog, p, seed, args=[how])
                what = f"no_end {how} p={p} seed={seed}"
                check(r.returncode == 1, f"{what}: exit {r.returncode}\n{r.stderr}")
                if how == "return":
                    want = r"process 0 returned from main \(ending the program\) inside the SPMD part, without calling bsp_end"
                else:
                    want = r"process 0 called exit\(\) inside the SPMD part, before bsp_end"
                check(re.search(r"error\[superstep-mismatch\]: superstep 1: " + want, r.stderr) is not None,
                      f"{what}: no finding saying so\n{r.stderr}")
                check(re.search(rf"^  at (.*/)?no_end\.c:{marks['LAST']} \(bsp_sync, process 0\)$", r.stderr, re.M)
                      is not None, f"{what}: not located at the last bsp_sync (line {marks['LAST']})\n{r.stderr}")
                if how == "exit":
                    check(re.search(rf"^  at (.*/)?no_end\.c:{marks['EXIT']} \(exit, process 0\)$", r.stderr, re.M)
                          is not None, f"{what}: not located at the exit (line {marks['EXIT']})\n{r.stderr}")




def check_thread_locals(a):
    for name, shared in (("thread_locals", False), ("thread_locals_mcbsp", True), ("thread_locals_static", False),
                         ("thread_locals_stripped", False)):
        prog = os.path.join(a.bin, name)
        # Stripped, the program's own unwinder cannot be primed, and processes 1..p-1 end at
        # bsp_end without unwinding, as at a separate process's exit(): main's `local` is not
        # destroyed. A separate process's leak check would find it on the stack exit() was
        # called from; here that stack is given back, so a sanitizer build's leak check is off.
        env_extra = None
        if name == "thread_locals_stripped":
            asan = os.environ.get("ASAN_OPTIONS")
            env_extra = {"ASAN_OPTIONS": (asan + ":" if asan else "") + "detect_leaks=0"}
        for p in (1, 2, 3, 4):
            for seed in SEEDS:
                r = direct(prog, p, seed, env_extra=env_extra)
                what = f"{name} p={p} seed={seed}"
                check(r.returncode == 0, f"{what}: exit {r.returncode}\n{r.stderr}")
                lines = r.stdout.splitlines()
                for pid in range(p):
                    global_value = 42 if shared or pid == 0 else 0
                    want = [f"process {pid}: ok=1 global={global_value}", f"process {pid}: destroyed size={100 + pid}"]
                    for w in want:
                        check(lines.count(w) == 1, f"{what}: {lines.count(w)} lines {w!r}\n{r.stdout}")
                check(len(lines) == 2 * p, f"{what}: {len(lines)} lines, wanted {2 * p}\n{r.stdout}")


def check_end_cleanups(a):
    runs = (("end_cleanup", [], "cleaned up"), ("end_plain", [], None), ("end_guard", [], "destroyed"),
            ("end_guard_dlopen", [a.library], "destroyed"))
    for name, args, ending in runs:
        prog = os.path.join(a.bin, name)
        for p in (1, 2, 3, 4):
            for seed in SEEDS[:3]:
                r = direct(prog, p, seed, args=args)
                what = f"{name} p={p} seed={seed}"
                check(r.returncode == 0, f"{what}: exit {r.returncode}\n{r.stderr}")
                lines = r.stdout.splitlines()
                want = [f"process {pid}: began" for pid in range(p)]
                if ending:
                    want += [f"process {pid}: {ending}" for pid in range(p)]
                check(sorted(lines) == sorted(want), f"{what}: printed {lines}, wanted {sorted(want)}")
                check(not r.stderr, f"{what}: stderr {r.stderr!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("check", choices=["environment", "start_state", "random_state", "unfinished_line",
                                        "return_without_end", "thread_locals", "end_cleanups"])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--random-reference")
    ap.add_argument("--library", help="end_guard_library.cpp built (end_cleanups)")
    a = ap.parse_args()
    globals()["check_" + a.check](a)
    if failures:
        print(f"{len(failures)} failure(s)")
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
