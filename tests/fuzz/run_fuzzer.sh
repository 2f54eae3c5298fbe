#!/usr/bin/env bash
# Usage: run_fuzzer.sh BUILD_DIR SECONDS
# Builds trace_reader_fuzzer with clang++ (-fsanitize=fuzzer,address,undefined; not through the
# project's CMake, which may use gcc), records a seed corpus with BUILD_DIR's bsp-check and
# examples, and fuzzes trace::Reader::parse for SECONDS. Exits non-zero on any crash, leak,
# sanitizer report, timeout or out-of-memory; the reproducer is left in BUILD_DIR/tests/fuzz/.
# Exits 0 with a "SKIPPED" message only when clang or its libFuzzer runtime is not installed
# (Debian: clang-14 and libclang-rt-14-dev), or 1 then too with FUZZ_REQUIRED=1.
# Environment: CXX_FUZZ (the clang++ to use), FUZZ_JOBS (parallel workers, default 1),
# FUZZ_ARGS (more libFuzzer options, e.g. -use_value_profile=1), FUZZ_REQUIRED.
set -euo pipefail
build="$(cd "${1:?usage: run_fuzzer.sh BUILD_DIR SECONDS}" && pwd)"
seconds="${2:?usage: run_fuzzer.sh BUILD_DIR SECONDS}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$build/tests/fuzz"
mkdir -p "$work"

# --- the compiler and its fuzzer runtime ---------------------------------------------------------
cxx="${CXX_FUZZ:-}"
if [ -z "$cxx" ]; then
  for c in clang++ clang++-14 clang++-15 clang++-16 clang++-17 clang++-18 clang++-19; do
    if command -v "$c" >/dev/null 2>&1; then cxx="$c"; break; fi
  done
fi
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
[ -n "$cxx" ] || skip "no clang++ found (Debian: apt-get install clang-14 libclang-rt-14-dev)"
probe="$work/probe"
printf '#include <cstddef>\n#include <cstdint>\nextern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n' \
  >"$probe.cpp"
# A skip only when the linker names one of clang's runtime libraries (libclang_rt.fuzzer,
# libclang_rt.asan, ...): any other failure of this empty program is a broken compiler, a failure.
if ! "$cxx" -fsanitize=fuzzer,address,undefined "$probe.cpp" -o "$probe" >"$probe.log" 2>&1; then
  cat "$probe.log"
  grep -q 'libclang_rt\.' "$probe.log" ||
    { echo "run_fuzzer: FAILED: $cxx cannot build an empty fuzzer (above)" >&2; exit 1; }
  skip "$cxx cannot link -fsanitize=fuzzer,address,undefined (its libFuzzer runtime is missing;" \
       "Debian: apt-get install libclang-rt-14-dev for clang-14)"
fi

# --- the fuzzer ----------------------------------------------------------------------------------
fuzzer="$work/trace_reader_fuzzer"
sources=("$here/trace_reader_fuzzer.cpp" "$root/replay/trace_format.cpp" "$root/runtime/options/option_values.cpp")
stale=0
[ -x "$fuzzer" ] || stale=1
for f in "${sources[@]}" "$root/replay/trace_format.hpp" "$here/run_fuzzer.sh"; do
  if [ "$f" -nt "$fuzzer" ]; then stale=1; fi
done
if [ "$stale" = 1 ]; then
  echo "run_fuzzer: building $fuzzer with $("$cxx" --version | head -1)"
  "$cxx" -std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined -I"$root" -I"$root/include" "${sources[@]}" -o "$fuzzer.tmp"
  mv "$fuzzer.tmp" "$fuzzer"
fi

# --- the corpus ----------------------------------------------------------------------------------
seeds="$work/seeds"     # recorded traces, remade every time
corpus="$work/corpus"   # what the fuzzer finds, kept between runs of the same build tree
rm -rf "$seeds"
bash "$here/make_corpus.sh" "$build" "$seeds"
mkdir -p "$corpus"

# --- the run -------------------------------------------------------------------------------------
jobs="${FUZZ_JOBS:-1}"
extra=()
if [ "$jobs" -gt 1 ]; then extra+=(-fork="$jobs"); fi
# shellcheck disable=SC2206
extra+=(${FUZZ_ARGS:-})
echo "run_fuzzer: fuzzing trace::Reader::parse for ${seconds}s"
status=0
(cd "$work" &&
  ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:${ASAN_OPTIONS:-}" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}" \
  "$fuzzer" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=16384 \
    -dict="$here/trace.dict" -print_final_stats=1 -artifact_prefix="$work/" "${extra[@]}" \
    "$corpus" "$seeds") || status=$?
if [ "$status" -ne 0 ]; then
  echo "run_fuzzer: FAILED (status $status): the reader crashed, leaked, hung or broke an invariant." >&2
  ls -1 "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null | sed 's/^/  reproducer: /' >&2 || true
  echo "  reproduce: $fuzzer <reproducer>" >&2
  exit 1
fi
echo "run_fuzzer: no crashes in ${seconds}s"
