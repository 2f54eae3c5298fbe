#!/usr/bin/env bash
# Usage: ctest_retry_test.sh [BUILD_DIR]
# scripts/ctest_retry.sh retries only the tests its list names: on a throw-away CTest project with a
# test that fails on its first try only (flaky) and one that always fails (broken), a listed flaky
# test passes with a RETRIED line naming it; the negative controls fail the run: the same flaky
# test unlisted (as a blanket `--repeat until-pass:2` would have let through), and a listed test that
# fails its retry too.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0

mkdir -p "$tmp/src"
cat >"$tmp/src/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(retry_test NONE)
enable_testing()
add_test(NAME steady COMMAND true)
# Fails while its marker is absent, and leaves the marker: fails the first try, passes the next.
add_test(NAME flaky COMMAND sh -c "if [ -e flaky.seen ]; then exit 0; else touch flaky.seen; exit 1; fi")
if(WITH_BROKEN)
  add_test(NAME broken COMMAND false)
endif()
CMAKE

# case NAME LIST-LINES WITH_BROKEN WANT_STATUS WANT_PATTERN
case_() {
  local name="$1" lines="$2" broken="$3" want="$4" pattern="$5" status=0
  rm -rf "$tmp/build"
  cmake -S "$tmp/src" -B "$tmp/build" -DWITH_BROKEN="$broken" >/dev/null
  printf '%b' "$lines" >"$tmp/list"
  : >"$tmp/retried.log"
  RETRIED_TESTS_FILE="$tmp/list" RETRIED_LOG="$tmp/retried.log" \
    bash "$root/scripts/ctest_retry.sh" "$tmp/build" --output-on-failure >"$tmp/out" 2>&1 || status=$?
  if [ "$status" != "$want" ] || ! grep -q "$pattern" "$tmp/out"; then
    echo "FAIL: $name: exit $status (want $want), looking for '$pattern' in:"
    sed 's/^/    /' "$tmp/out"
    fail=1
  else
    echo "ok: $name: exit $status, '$pattern'"
  fi
}

case_ "a listed flaky test passes on its retry, named" "# comment\nflaky  fails on its first try\n" OFF 0 \
  "^RETRIED: flaky failed, then passed on its retry (fails on its first try)"
grep -q "^RETRIED: flaky" "$tmp/retried.log" || { echo "FAIL: RETRIED_LOG has no RETRIED line"; fail=1; }
case_ "an unlisted flaky test fails the run" "other  another test\n" OFF 1 "FAILED, not retried.*: flaky"
case_ "a listed test failing its retry fails the run" "flaky  x\nbroken  y\n" ON 1 "FAILED on the retry too"
case_ "one unlisted failure fails the run, listed ones with it or not" "flaky  x\n" ON 1 "not retried.*: broken"
case_ "a name only mentioned in a reason is not listed" "other  not flaky at all\n" OFF 1 "not retried.*: flaky"

# With BUILD_DIR: every test the real list names exists there (a renamed test is not retried
# under its old name while the list still reads as if it were).
if [ -n "${1:-}" ]; then
  names="$(cd "$1" && ctest -N | sed -n 's/^ *Test *#[0-9]*: //p')"
  while read -r t _; do
    case "$t" in ''|'#'*) continue ;; esac
    if grep -qxF "$t" <<<"$names"; then echo "ok: $t, on the retry list, is a test of $1"
    else echo "FAIL: scripts/retried_tests.txt names $t, which $1 does not have"; fail=1; fi
  done <"$root/scripts/retried_tests.txt"
fi
exit "$fail"
