#!/usr/bin/env bash
# bench_trace.sh: the cost of recording and replaying a trace, side by side with a plain run of
# the same program and seed (bench/bench_trace_program.c: about a million BSPlib calls at p = 8).
#
#   bench/bench_trace.sh [BUILD_DIR]      (default: <repo>/build)
#
# Prints a markdown table: CPU milliseconds (median of BENCH_REPS, default 11, the runs
# interleaved), the ratio to the plain run, peak memory, and the trace's size per call.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$(dirname "$here")/build}
reps=${BENCH_REPS:-11}
[ -x "$build/bspcc" ] || { echo "bench_trace: build $build first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bspcc" -O2 -o "$work/prog" "$here/bench_trace_program.c"

# The three runs interleaved, BENCH_REPS rounds; CPU time (user + system) from wait4, which
# counts microseconds (/usr/bin/time's 10 ms steps were a tenth of the gap to measure). Every
# run is pinned to one CPU (taskset, where there is one; BENCH_CPU, default the last allowed):
# unpinned, a run on this 2-core VM took 105 ms or 150 ms by phases, whole phases at a time,
# noise twice the size of the gaps measured.
pin=()
if command -v taskset > /dev/null; then
  pin=(taskset -c "${BENCH_CPU:-$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')}")
fi
python3 - "$work/prog" "$reps" "${#pin[@]}" "${pin[@]}" "procs=8:seed=1" "procs=8:seed=1:trace=$work/t.trace" \
  "procs=8:seed=1:replay=$work/t.trace" <<'PY'
import os, statistics, subprocess, sys
prog, reps = sys.argv[1], int(sys.argv[2])
npin = int(sys.argv[3])
pin, runs = sys.argv[4:4 + npin], sys.argv[4 + npin:]
rss_file = os.path.join(os.path.dirname(prog), "rss")
names = ["plain", "record", "replay"]
cpu = {n: [] for n in names}
rss = {n: 0 for n in names}
for _ in range(reps):
    for name, options in zip(names, runs):
        # /usr/bin/time for the peak memory of the program alone (a forked Python's counts too).
        child = subprocess.Popen(pin + ["/usr/bin/time", "-o", rss_file, "-f", "%M", prog],
                                 env=dict(os.environ, BSPCHECK_OPTIONS=options),
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, use = os.wait4(child.pid, 0)
        if status != 0:
            sys.exit(f"bench_trace: the {name} run failed (status {status})")
        cpu[name].append((use.ru_utime + use.ru_stime) * 1000)
        with open(rss_file) as f:
            rss[name] = max(rss[name], int(f.read().split()[-1]))
calls = 8 * (2000 * 65 + 4)
print(f"| run (p = 8, ~{calls} calls) | CPU ms (median of {reps}) | x plain | max RSS |")
print("|---|---|---|---|")
plain = statistics.median(cpu["plain"])
for name in names:
    m = statistics.median(cpu[name])
    print(f"| {name} | {m:.1f} | {m / plain:.2f} | {rss[name] / 1024:.0f} MB |")
PY
calls=$(( 8 * (2000 * 65 + 4) ))
size=$(stat -c %s "$work/t.trace")
awk -v s="$size" -v c="$calls" 'BEGIN { printf "\ntrace: %.1f MB, %.1f bytes per call (choices included)\n", s / 1e6, s / c }'
