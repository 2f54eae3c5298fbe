#!/usr/bin/env bash
# Usage: run_options_fuzzer.sh BUILD_DIR SECONDS
# Builds options_fuzzer with clang++ (-fsanitize=fuzzer,address,undefined) and fuzzes the
# BSPCHECK_OPTIONS parser (runtime/options/options.cpp) for SECONDS from a few seed strings. Exits
# non-zero on any crash, sanitizer report, timeout or broken invariant (the reproducer is left in
# BUILD_DIR/tests/fuzz/). Skips, as run_fuzzer.sh does, only when clang or its libFuzzer runtime is
# missing (or fails then too with FUZZ_REQUIRED=1). CXX_FUZZ names the clang++ to use.
set -euo pipefail
build="$(cd "${1:?usage: run_options_fuzzer.sh BUILD_DIR SECONDS}" && pwd)"
seconds="${2:?usage: run_options_fuzzer.sh BUILD_DIR SECONDS}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$build/tests/fuzz/options"
mkdir -p "$work"

# Under FUZZ_REQUIRED=1 (scripts/test.sh) a missing runtime is a failure, and nothing is printed
# that tests/fuzz/CMakeLists.txt's SKIP_REGULAR_EXPRESSION matches: CTest applies that before it
# looks at the exit status, so the line alone would turn the failure into a skip.
skip() {
  if [ "${FUZZ_REQUIRED:-0}" = 1 ]; then
    echo "run_fuzzer: FAILED: FUZZ_REQUIRED=1, and the fuzzer cannot be built: $*" >&2
    exit 1
  fi
  echo "run_fuzzer: SKIPPED: $*"
  exit 0
}
cxx="${CXX_FUZZ:-}"
if [ -z "$cxx" ]; then
  for c in clang++ clang++-14 clang++-15 clang++-16 clang++-17 clang++-18 clang++-19; do
    if command -v "$c" >/dev/null 2>&1; then cxx="$c"; break; fi
  done
fi
[ -n "$cxx" ] || skip "no clang++ found (Debian: apt-get install clang-14 libclang-rt-14-dev)"

fuzzer="$work/options_fuzzer"
sources=("$here/options_fuzzer.cpp" "$root/runtime/options/options.cpp" "$root/runtime/options/option_values.cpp" "$root/checker/suppressions.cpp")
if ! "$cxx" -std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
     -fno-sanitize-recover=undefined -I"$root" -I"$root/include" "${sources[@]}" -o "$fuzzer" 2>"$work/build.log"; then
  cat "$work/build.log"
  # Only the runtime library's own name: a broken include in the fuzzer's sources also says
  # "No such file", and is a failure.
  grep -q 'libclang_rt\.fuzzer' "$work/build.log" &&
    skip "$cxx cannot link -fsanitize=fuzzer (its libFuzzer runtime is missing)"
  echo "run_fuzzer: FAILED: the fuzzer does not build (above)" >&2
  exit 1
fi

seeds="$work/seeds" corpus="$work/corpus"
rm -rf "$seeds"; mkdir -p "$seeds" "$corpus"
i=0
for s in 'seed=7:procs=4' 'timeout=1.5:stack=256k:exitcode=3' 'disable=put-collision,reg-leak:werror=1:check=0' \
         'seed=0x1f:break_superstep=-1:break_process=2' 'strategy=round_robin:prefix=[%p] :realtime=1'; do
  printf '%s' "$s" >"$seeds/seed$((i++))"
done
echo "run_fuzzer: fuzzing BSPCHECK_OPTIONS parsing for ${seconds}s"
status=0
# In a scratch folder: nothing the parser is given may touch the source or build tree.
(cd "$work" &&
  ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:${ASAN_OPTIONS:-}" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}" \
  "$fuzzer" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=512 \
    -dict="$here/options.dict" -print_final_stats=1 -artifact_prefix="$work/" "$corpus" "$seeds") || status=$?
if [ "$status" -ne 0 ]; then
  echo "run_fuzzer: FAILED (status $status)" >&2
  ls -1 "$work"/crash-* "$work"/timeout-* "$work"/oom-* 2>/dev/null | sed 's/^/  reproducer: /' >&2 || true
  exit 1
fi
echo "run_fuzzer: no crashes in ${seconds}s"
