#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite twice: a plain build (warnings as errors) and
# an ASan+UBSan build of the runtime, examples and tests; in between, the MPI back end's tests
# once more against Open MPI (the builds use MPICH). The sanitizer build's sweeps take fewer
# seeds per process count (memory errors show in any run; the plain build runs the full sweeps).
# At the end: which listed tests needed their retry, and where the time went (per phase, and per
# CTest label in each build).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
start=$SECONDS
bash "$root/scripts/setup.sh"
jobs="$(nproc)"
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
phases=()
phase_start=$SECONDS
phase_done() { phases+=("$(printf '%-22s %6d s' "$1" $((SECONDS - phase_start)))"); phase_start=$SECONDS; }
phase_done "setup"

# The trace reader's fuzzer (tests/fuzz) needs clang's fuzzer runtime, which setup installs: a
# missing runtime is a failure here, not a skip.
export FUZZ_REQUIRED=1

# A failing test is run once more only if scripts/retried_tests.txt lists it, with its reason
# (scripts/ctest_retry.sh); every RETRIED line is repeated at the end.
export RETRIED_LOG="$logs/retried"
: >"$RETRIED_LOG"

# ctest's own "Label Time Summary" of a run (the first one: a retry prints its own), for the end.
label_times() { awk '/^Label Time Summary:/ { f = 1; next } f && /^$/ { exit } f' "$1"; }

echo "== plain build"
bash "$root/scripts/build.sh" "$root/build" -DBSPCHECK_WERROR=ON
phase_done "plain build"
# Whether hardware watchpoints fire here decides what the watchpoint tests assert
# (runtime/memory_checks/watchpoint_probe.hpp): the log says which it was, whichever answer it is.
bspcheck="$(find "$root/build" -path '*/CMakeFiles' -prune -o -name bsp-check -type f -perm -u+x -print | head -1)"
version="$("${bspcheck:-bsp-check not built}" --version)"
echo "$version"
grep -q '^hardware watchpoints: ' <<<"$version" ||
  { echo "test.sh: bsp-check --version does not say whether hardware watchpoints fire" >&2; exit 1; }
# A test without a TIMEOUT of its own gets 15 minutes: a hang fails that test, not the whole CI.
bash "$root/scripts/ctest_retry.sh" "$root/build" -j"$jobs" --timeout 900 --output-on-failure | tee "$logs/plain"
phase_done "plain tests"

echo "== Open MPI: the MPI back end's tests"
bash "$root/scripts/test_openmpi.sh" "$root/build-openmpi" -DBSPCHECK_WERROR=ON | tee "$logs/openmpi"
phase_done "Open MPI build, tests"

echo "== ASan+UBSan build"
bash "$root/scripts/build.sh" "$root/build-asan" -DBSPCHECK_WERROR=ON -DBSPCHECK_SANITIZE=address,undefined \
  -DBSPCHECK_BUILD_BENCH=OFF -DBSPCHECK_LINE_TABLES_ONLY=ON \
  -DE2E_SEEDS=8 -DCHECKS_CLEAN_SEEDS=8 -DSEED_EXAMPLES_SEEDS=25
phase_done "ASan+UBSan build"
ASAN_OPTIONS=detect_leaks=1 bash "$root/scripts/ctest_retry.sh" "$root/build-asan" -j"$jobs" --timeout 900 \
  --output-on-failure | tee "$logs/asan"
phase_done "ASan+UBSan tests"

echo "== summary"
if [ -s "$RETRIED_LOG" ]; then cat "$RETRIED_LOG"; else echo "no test needed a retry"; fi
echo "time per phase ($(nproc) cores):"
printf '  %s\n' "${phases[@]}"
printf '  %-22s %6d s\n' "total" $((SECONDS - start))
echo "time per label, plain build (CTest: the tests' own times added up, not wall time):"
label_times "$logs/plain" | sed 's/^/  /'
echo "time per label, Open MPI build:"
label_times "$logs/openmpi" | sed 's/^/  /'
echo "time per label, ASan+UBSan build:"
label_times "$logs/asan" | sed 's/^/  /'
