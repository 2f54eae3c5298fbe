#!/usr/bin/env bash
# bench_native.sh: bsp-check side by side with a native BSPlib, BSPonMPI over MPI, on four
# kernels (bench/bench_native_kernels.c: inner product, ring, all-to-all, sample sort) at p = 2
# and p = 4.
#
#   bench/bench_native.sh [BUILD_DIR] [BSPONMPI_SOURCE]      (or BSPONMPI_SRC=... in the environment)
#
# BSPONMPI_SOURCE is a checkout of https://github.com/wijnand-suijlen/bsponmpi; the script builds
# and installs it under BUILD_DIR/bench-native/ once (MPI from the system: mpicc, mpirun; on Debian
# `apt-get install mpich libmpich-dev`). Without a source, or without MPI, it says why and exits 0:
# nothing of bsp-check's own build or tests depends on it.
#
# Each kernel runs under BSPonMPI (bsprun -n p), under bsp-check with its checks (the default)
# and with --no-check, interleaved, BENCH_REPS rounds (default 5); the figure is the median of
# the seconds the kernel itself measures on process 0 between two syncs (start-up excluded: an
# MPI launch and bsp-check's fork of a run both cost more than some kernels). Every run's check
# value must agree, so the three do the same work. Prints a markdown table; the ratio is
# bsp-check's time over BSPonMPI's (below 1: bsp-check is faster).
#
# BENCH_KERNELS overrides the kernel list: "kernel:N:REPS ..." (N per process).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$(dirname "$here")/build}
source_dir=${2:-${BSPONMPI_SRC:-}}
reps=${BENCH_REPS:-5}
kernels=${BENCH_KERNELS:-"inprod:1000000:50 ring:1000:500 alltoall:20000:50 sort:500000:2"}

skip() { echo "bench_native: skipped: $*"; exit 0; }
[ -x "$build/bspcc" ] || { echo "bench_native: build $build first (bspcc not found)" >&2; exit 2; }
[ -x "$build/tools/bsp-check" ] || { echo "bench_native: build $build first (tools/bsp-check not found)" >&2; exit 2; }
command -v mpicc > /dev/null && command -v mpirun > /dev/null ||
  skip "no MPI (mpicc and mpirun; on Debian: apt-get install mpich libmpich-dev)"

source "$here/bsponmpi_build.sh"
bsponmpi_build bench_native "$build" "$source_dir"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$native/install/bin/bspcc" -O2 -o "$work/native" "$here/bench_native_kernels.c"
"$build/bspcc" -O2 -o "$work/checked" "$here/bench_native_kernels.c"

python3 - "$native/install/bin/bsprun" "$build/tools/bsp-check" "$work" "$reps" $kernels <<'PY'
import statistics, subprocess, sys
bsprun, bsp_check, work, reps, kernels = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]

def commands(p, args):
    checked = [bsp_check, "run", "-q", "-v", "-p", str(p), "--seed", "1", "--no-determinism-check",
               "--schedule-dependent-output"]
    return {
        "BSPonMPI": [bsprun, "-n", str(p), f"{work}/native", *args],
        "bsp-check": checked + [f"{work}/checked", *args],
        "bsp-check --no-check": checked + ["--no-check", f"{work}/checked", *args],
    }

def run(command):
    out = subprocess.run(command, capture_output=True, text=True, timeout=600)
    line = next((l for l in out.stdout.splitlines() if l.startswith("kernel ")), None)
    if out.returncode != 0 or line is None:
        sys.exit(f"bench_native: {' '.join(command)} failed (status {out.returncode}):\n{out.stdout}{out.stderr}")
    words = line.split()
    return float(words[words.index("seconds") + 1]), words[words.index("check") + 1]

print("| kernel | p | N per process x reps | BSPonMPI s | bsp-check s | x BSPonMPI | bsp-check --no-check s | x BSPonMPI |")
print("|---|---|---|---|---|---|---|---|")
for spec in kernels:
    kernel, n, r = spec.split(":")
    for p in (2, 4):
        runs = commands(p, [kernel, n, r])
        seconds = {name: [] for name in runs}
        checks = set()
        for _ in range(reps):
            for name, command in runs.items():
                s, check = run(command)
                seconds[name].append(s)
                checks.add(check)
        if len(checks) != 1:
            sys.exit(f"bench_native: {kernel} at p = {p}: the runs disagree ({sorted(checks)})")
        native, on, off = (statistics.median(seconds[name]) for name in runs)
        print(f"| {kernel} | {p} | {n} x {r} | {native:.4g} | {on:.4g} | {on / native:.2f} | {off:.4g} | {off / native:.2f} |",
              flush=True)
PY
