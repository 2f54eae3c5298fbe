#!/usr/bin/env bash
# Usage: marker_position_test.sh BSP-CHECK BOUNDS-PUT SOURCE
# checks.py holds a finding to the superstep and process its marker names ("BUG: bounds-put @
# superstep 1, process 1"): the example's own marker passes, and the negative controls fail, each
# with its reason: the marker naming another process, another superstep, or no position at all.
set -uo pipefail
b="$1"; program="$2"; source="$3"
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
# expect EDIT STATUS PATTERN: the example's source with the sed EDIT, checked by checks.py fires.
expect() {
  local edit="$1" want="$2" pattern="$3" status=0
  sed "$edit" "$source" >"$tmp/bounds_put.c"
  python3 "$here/checks.py" fires --bsp-check "$b" --program "$program" --source "$tmp/bounds_put.c" \
    --rule bounds-put --procs 2-4 --seeds 3 >"$tmp/out" 2>&1 || status=$?
  if [ "$status" = "$want" ] && grep -q "$pattern" "$tmp/out"; then echo "ok: '$edit': exit $status"
  else echo "FAIL: '$edit': exit $status (want $want), no '$pattern' in:"; sed 's/^/    /' "$tmp/out" | tail -5; fail=1; fi
}
grep -q "BUG: bounds-put @ superstep 1, process 1 " "$source" || { echo "FAIL: $source's marker is not the one this test edits"; exit 1; }
expect "" 0 "^ok: \[bounds-put\]"
expect "s/superstep 1, process 1/superstep 1, process 0/" 1 "in superstep 1 by process 0 "
expect "s/superstep 1, process 1/superstep 2, process 1/" 1 "in superstep 2 by process 1 "
expect "s/ @ superstep 1, process 1//" 1 "carry no '@ superstep S, process P'"
exit "$fail"
