#!/usr/bin/env bash
# bench_mpi_native.sh: bsp-check's MPI back end side by side with BSPonMPI 1.1.1, on the same MPI,
# one machine, p = 2, 4 and 8 (issue 44, item 2; figures in docs/performance.md, "The MPI back end
# side by side with BSPonMPI").
#
#   bench/mpi/bench_mpi_native.sh [BUILD_DIR] [BSPONMPI_SOURCE]   (or BSPONMPI_SRC=... in the environment)
#
# BSPONMPI_SOURCE is a checkout of https://github.com/wijnand-suijlen/bsponmpi (tag v1.1.1); it is
# built and installed under BUILD_DIR/bench-native/ once, as bench/bench_native.sh does (the two
# share it). Without a source, or without MPI, the script says why in one line and exits 0.
#
# Five kernels of bench/bench_native_kernels.c (inner product, all-to-all of 8-byte messages, a
# ring of 8-byte puts, a 1 MiB put to the neighbour, an empty superstep), each built with
# BSPonMPI's bspcc and with `bspcc --backend=mpi`, and run with mpirun under:
#   BSPonMPI      its bsprun (its defaults: one-sided MPI_Put between fences for large exchanges)
#   off           the back end with BSPCHECK_OPTIONS=check=0 (the rules that span several calls off)
#   on            the checks of item 3 except put-collision and hp-src-modified
#                 (BSPCHECK_OPTIONS=disable=put-collision,hp-src-modified)
#   on+trace      the same, each rank recording its trace (trace=PATH)
# interleaved, BENCH_REPS rounds (default 5). A run's figure is the seconds process 0 measures
# between the sync before the kernel and the sync after it, per superstep (start-up excluded);
# every run's check value must agree. Prints one markdown table: per mode the median in µs per
# superstep and, in brackets, the best run (on a machine shared with other work the best runs
# are the ones the others disturbed least), and the ratios off/BSPonMPI, on/BSPonMPI, on/off and
# on+trace/on of the medians (of the best runs in brackets); the goals: <= 1, -, <= 1.25, <= 1.2.
#
# BENCH_PROCS overrides "2 4 8"; BENCH_KERNELS the kernel list "kernel:N:SUPERSTEPS ...";
# MPIRUN the launcher (default mpirun). At p above the number of cores (oversubscribed) MPICH's
# busy-polling ranks wait for scheduler time slices: there the kernels run a hundredth of the
# supersteps (at least 10) and at most 3 rounds, and the figures measure the scheduler as much.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$(dirname "$here")/build}
source_dir=${2:-${BSPONMPI_SRC:-}}
reps=${BENCH_REPS:-5}
procs=${BENCH_PROCS:-"2 4 8"}
kernels=${BENCH_KERNELS:-"inprod:100000:200 messages:16:500 ring:1:2000 bigput:1048576:100 empty:1:4000"}
mpirun=${MPIRUN:-mpirun}

skip() { echo "bench_mpi_native: skipped: $*"; exit 0; }
[ -x "$build/bspcc" ] || { echo "bench_mpi_native: build $build first (bspcc not found)" >&2; exit 2; }
command -v mpicc > /dev/null && command -v "$mpirun" > /dev/null ||
  skip "no MPI (mpicc and $mpirun; on Debian: apt-get install mpich libmpich-dev)"
ls "$build"/libbspcheck_mpi.so* > /dev/null 2>&1 ||
  skip "$build has no MPI back end (configure with MPI found, build the target bspcheck_mpi)"

source "$here/bsponmpi_build.sh"
bsponmpi_build bench_mpi_native "$build" "$source_dir"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$native/install/bin/bspcc" -O2 -o "$work/native" "$here/bench_native_kernels.c"
"$build/bspcc" --backend=mpi -O2 -o "$work/checked" "$here/bench_native_kernels.c"

python3 - "$native/install/bin/bsprun" "$mpirun" "$work" "$reps" "$procs" $kernels <<'PY'
import os, statistics, subprocess, sys
bsprun, mpirun, work, reps, procs, kernels = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6:]
checks_on = "disable=put-collision,hp-src-modified"
modes = {
    "BSPonMPI": ([bsprun], f"{work}/native", None),
    "off": ([mpirun], f"{work}/checked", "check=0"),
    "on": ([mpirun], f"{work}/checked", checks_on),
    "on+trace": ([mpirun], f"{work}/checked", f"{checks_on}:trace={work}/run.trace"),
}

def run(mode, p, args):
    launcher, program, options = modes[mode]
    env = dict(os.environ)
    env.pop("BSPCHECK_OPTIONS", None)
    if options: env["BSPCHECK_OPTIONS"] = options
    command = launcher + ["-n", str(p), program, *args]
    out = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)
    line = next((l for l in out.stdout.splitlines() if l.startswith("kernel ")), None)
    if out.returncode != 0 or line is None:
        sys.exit(f"bench_mpi_native: {mode}: {' '.join(command)} failed (status {out.returncode}):\n{out.stdout}{out.stderr}")
    words = line.split()
    return float(words[words.index("seconds") + 1]), words[words.index("check") + 1]

print("| kernel N | p | supersteps x runs | BSPonMPI µs | off µs | on µs | on+trace µs | off / BSPonMPI | on / BSPonMPI | on / off | on+trace / on |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for spec in kernels:
    kernel, n, steps = spec.split(":")
    for p in map(int, procs.split()):
        steps = spec.split(":")[2]
        # Oversubscribed (more ranks than cores), a superstep costs scheduler time slices while
        # MPICH's ranks busy-poll: a hundredth of the supersteps (at least 10), fewer rounds.
        oversubscribed = p > os.cpu_count()
        steps = str(max(10, int(steps) // 100)) if oversubscribed else steps
        rounds = min(reps, 3) if oversubscribed else reps
        seconds = {mode: [] for mode in modes}
        checks = set()
        for _ in range(rounds):
            for mode in modes:
                s, check = run(mode, p, [kernel, n, steps])
                seconds[mode].append(s)
                checks.add(check)
        if len(checks) != 1:
            sys.exit(f"bench_mpi_native: {kernel} at p = {p}: the runs disagree ({sorted(checks)})")
        med = {mode: statistics.median(v) * 1e6 / int(steps) for mode, v in seconds.items()}
        best = {mode: min(v) * 1e6 / int(steps) for mode, v in seconds.items()}
        cells = [f"{med[m]:.3g} ({best[m]:.3g})" for m in modes]
        ratios = [f"{med[a] / med[b]:.2f} ({best[a] / best[b]:.2f})"
                  for a, b in (("off", "BSPonMPI"), ("on", "BSPonMPI"), ("on", "off"), ("on+trace", "on"))]
        where = f"{p} (oversubscribed)" if oversubscribed else str(p)
        print(f"| {kernel} {n} | {where} | {steps} x {rounds} | " + " | ".join(cells + ratios) + " |", flush=True)
PY
