#!/usr/bin/env bash
# Usage: fuzz_skip_test.sh
# The fuzzer scripts skip only for a missing libFuzzer runtime, and never under FUZZ_REQUIRED=1
# (scripts/test.sh sets it): a stand-in clang++ (CXX_FUZZ) fails the way each case would, and the
# scripts' exit status and output are checked against what CTest makes of them. Among the cases, the
# negative controls the scripts once got wrong: a broken include in the fuzzer's source ("No such
# file") was taken for a missing runtime, and the SKIPPED line was printed under FUZZ_REQUIRED=1,
# where CTest's SKIP_REGULAR_EXPRESSION turned the failure into a skip.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0

# A clang++ that fails with the given message on stderr.
stub() {
  printf '#!/bin/sh\necho "%s" >&2\nexit 1\n' "$1" >"$tmp/clang++"
  chmod +x "$tmp/clang++"
}
missing_runtime='/usr/bin/ld: cannot find /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a: No such file or directory'
broken_source="options_fuzzer.cpp:3:10: fatal error: 'runtime/no_such_header.hpp' file not found (No such file or directory)"
broken_compiler='clang: error: unable to execute command: Segmentation fault'

# expect SCRIPT MESSAGE FUZZ_REQUIRED STATUS SKIPPED(yes|no)
expect() {
  local script="$1" message="$2" required="$3" want_status="$4" want_skip="$5" status=0
  stub "$message"
  mkdir -p "$tmp/build"
  CXX_FUZZ="$tmp/clang++" FUZZ_REQUIRED="$required" bash "$here/$script" "$tmp/build" 1 >"$tmp/out" 2>&1 || status=$?
  local skipped=no
  grep -q "run_fuzzer: SKIPPED" "$tmp/out" && skipped=yes
  if [ "$status" != "$want_status" ] || [ "$skipped" != "$want_skip" ]; then
    echo "FAIL: $script, FUZZ_REQUIRED=$required, clang++ says: $message"
    echo "  exit $status (want $want_status), SKIPPED line: $skipped (want $want_skip); output:"
    sed 's/^/    /' "$tmp/out"
    fail=1
  else
    echo "ok: $script, FUZZ_REQUIRED=$required, '${message:0:40}...': exit $status, skipped: $skipped"
  fi
}

for script in run_fuzzer.sh run_options_fuzzer.sh; do
  expect "$script" "$missing_runtime" 0 0 yes   # the one skip there is
  expect "$script" "$missing_runtime" 1 1 no    # required: a failure, with nothing CTest reads as a skip
done
expect run_options_fuzzer.sh "$broken_source" 0 1 no
expect run_options_fuzzer.sh "$broken_source" 1 1 no
expect run_fuzzer.sh "$broken_compiler" 0 1 no
exit "$fail"
