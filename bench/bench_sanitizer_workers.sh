#!/usr/bin/env bash
# bench_sanitizer_workers.sh: schedules per second of `bsp-check run -p 4 --seeds N` (default -j)
# for issue 47's tiny program (bench_tiny_program.c) built plainly, with -fsanitize=address and
# with -fsanitize=address,undefined (the fork server's workers, runtime/isolation/
# sanitizer_shadow.hpp), and with address and a forked child per run (BSPCHECK_RUNS_PER_WORKER=1,
# as before workers served sanitizer builds); examples/hello plainly; and the plain tiny program
# with an empty pipe for its standard input, as a test harness gives one (read at the start and
# served as a file: tools/launch/stdin_feed.hpp), not /dev/null. Repetitions interleave
# the configurations, so that the machine's drift hits them alike; each row is the median.
#
#   bench/bench_sanitizer_workers.sh [BUILD_DIR] [SEEDS]     (defaults: <repo>/build, 1000)
#
# Prints a markdown row per configuration: median wall seconds, schedules per second, and the
# ratio of its seconds per schedule to the plain tiny program's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$(dirname "$here")/build}
seeds=${2:-1000}
reps=${BENCH_REPS:-3}
bsp_check="$build/tools/bsp-check"
[ -x "$bsp_check" ] && [ -x "$build/bspcc" ] && [ -x "$build/examples/hello" ] ||
  { echo "bench_sanitizer_workers: build $build first (bsp-check, bspcc, examples/hello)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bspcc" -O2 "$here/bench_tiny_program.c" -o "$work/tiny"
"$build/bspcc" -O2 -fsanitize=address "$here/bench_tiny_program.c" -o "$work/tiny_asan"
"$build/bspcc" -O2 -fsanitize=address,undefined "$here/bench_tiny_program.c" -o "$work/tiny_asan_ubsan"

names=(tiny hello tiny_asan tiny_asan_ubsan tiny_asan_forked tiny_piped)
labels=("tiny, plain" "examples/hello, plain" "tiny, -fsanitize=address, workers"
        "tiny, -fsanitize=address,undefined, workers" "tiny, -fsanitize=address, a forked child per run"
        "tiny, plain, standard input an empty pipe")
command_of() {
  case $1 in
    tiny | tiny_asan | tiny_asan_ubsan) echo "$bsp_check run -q -p 4 --seeds $seeds $work/$1" ;;
    tiny_piped) echo "$bsp_check run -q -p 4 --seeds $seeds $work/tiny" ;;
    hello) echo "$bsp_check run -q -p 4 --seeds $seeds $build/examples/hello" ;;
    tiny_asan_forked) echo "env BSPCHECK_RUNS_PER_WORKER=1 $bsp_check run -q -p 4 --seeds $seeds $work/tiny_asan" ;;
  esac
}
declare -A times
for _ in $(seq "$reps"); do
  for n in "${names[@]}"; do
    start=$(date +%s.%N)
    if [ "$n" = tiny_piped ]; then
      : | $(command_of "$n") >/dev/null 2>&1 || true
    else
      $(command_of "$n") >/dev/null 2>&1 </dev/null || true
    fi
    times[$n]+="$(echo "$(date +%s.%N) - $start" | bc) "
  done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
base=$(echo "${times[tiny]}" | median)
echo "| configuration (\`run -p 4 --seeds $seeds\`, default -j) | wall s | schedules/s | x plain tiny |"
echo "|---|---|---|---|"
for i in "${!names[@]}"; do
  m=$(echo "${times[${names[$i]}]}" | median)
  printf '| %s | %.2f | %.0f | %.1f |\n' "${labels[$i]}" "$m" "$(echo "$seeds / $m" | bc -l)" "$(echo "$m / $base" | bc -l)"
done
