#!/usr/bin/env bash
# Usage: ctest_retry.sh BUILD_DIR [CTEST OPTIONS...]
# Runs ctest once in BUILD_DIR. Failing tests are run once more only when every one of them is on
# the retry list (scripts/retried_tests.txt, or RETRIED_TESTS_FILE), which says why each may fail
# without a bug; any other failure fails at once. A test that passed on its retry is named in a
# RETRIED line at the end, so that an intermittent failure is seen, not hidden. (A blanket
# `--repeat until-pass:2` kept a test that fails half the time green.)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:?usage: ctest_retry.sh BUILD_DIR [CTEST OPTIONS...]}"
shift
list="${RETRIED_TESTS_FILE:-$root/scripts/retried_tests.txt}"

# The reason the list gives for a test, or nothing when it is not on the list.
reason() { awk -v t="$1" '!/^#/ && $1 == t { $1 = ""; sub(/^ +/, ""); print; exit }' "$list"; }

status=0
(cd "$build" && ctest "$@") || status=$?
[ "$status" -eq 0 ] && exit 0
failed_log="$build/Testing/Temporary/LastTestsFailed.log"
if [ ! -s "$failed_log" ]; then
  echo "ctest_retry: ctest exited $status with no failed test listed (a usage or configuration error)" >&2
  exit "$status"
fi
mapfile -t failed < <(sed 's/^[0-9]*://' "$failed_log")
unlisted=()
for t in "${failed[@]}"; do [ -n "$(reason "$t")" ] || unlisted+=("$t"); done
if [ "${#unlisted[@]}" -gt 0 ]; then
  echo "ctest_retry: FAILED, not retried (not in ${list#"$root"/}): ${unlisted[*]}" >&2
  exit 1
fi
regex="^($(printf '%s\n' "${failed[@]}" | sed 's/[][\.*^$+?(){}|]/\\&/g' | paste -sd '|'))\$"
echo "ctest_retry: retrying ${failed[*]} (listed in ${list#"$root"/})"
if ! (cd "$build" && ctest "$@" -R "$regex"); then
  echo "ctest_retry: FAILED on the retry too: ${failed[*]}" >&2
  exit 1
fi
for t in "${failed[@]}"; do
  line="RETRIED: $t failed, then passed on its retry ($(reason "$t"))"
  echo "$line"
  # scripts/test.sh repeats them at the very end, under both builds' results.
  if [ -n "${RETRIED_LOG:-}" ]; then echo "$line" >>"$RETRIED_LOG"; fi
done
