#!/bin/sh
# bench_globals.sh: what per-process globals add to a process switch, for executables with
# 0 B, 4 KiB, 64 KiB, 256 KiB, 1 MiB and 64 MiB of writable globals. Each row times the same
# binary side by side (alternating runs, median of BENCH_REPS) with the globals shared, private
# by copying and private by remapping (BSPCHECK_OPTIONS globals_remap= forces the way), and
# prints what each way adds per switch and which one the default threshold picks.
#   bench/bench_globals.sh [BUILD_DIR]      (default: <repo>/build-bench, built by run_all.sh)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-${BUILD_DIR:-$(dirname "$here")/build-bench}}
reps=${BENCH_REPS:-5}
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
run() { BSPCHECK_OPTIONS="procs=4:strategy=round_robin:check=0:$1" "$2" "$3"; }  # the switch alone
echo "| writable globals | switches per run | shared ns/switch | copy adds ns/switch | remap adds ns/switch | default |"
echo "|---|---|---|---|---|---|"
for v in 0:400000 4k:400000 64k:20000 256k:10000 1m:4000 64m:40; do
  size=${v%%:*}
  n=${v#*:}
  prog="$build/bench/bench_globals_$size"
  s=""; c=""; r=""; d=""
  for _ in $(seq "$reps"); do
    s="$s $(run globals=shared "$prog" "$n")"
    c="$c $(run globals=private:globals_remap=1g "$prog" "$n")"
    r="$r $(run globals=private:globals_remap=0 "$prog" "$n")"
    d="$d $(run globals=private "$prog" "$n")"
  done
  ms=$(echo "$s" | median); mc=$(echo "$c" | median); mr=$(echo "$r" | median); md=$(echo "$d" | median)
  awk -v size="$size" -v sw=$((n * 4)) -v s="$ms" -v c="$mc" -v r="$mr" -v d="$md" 'BEGIN {
    printf "| %s | %d | %.2f | %.2f | %.2f | %s (adds %.2f) |\n", size, sw, s, c - s, r - s,
           ((d - c) * (d - c) < (d - r) * (d - r) ? "copy" : "remap"), d - s }'
done
