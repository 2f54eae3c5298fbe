# lib.sh: what every robustness test shares. Sourced with BSPCHECK, BSPCC and CFLAGS set.
# Each test runs in a private folder that is also $TMPDIR, so that leftovers can be counted, and
# compiles its programs there (the test programs live in programs/).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
export TMPDIR="$work/tmp"
mkdir -p "$TMPDIR"
trap 'rm -rf "$work"' EXIT
fail=0

# compile NAME: programs/NAME.c -> $work/NAME
compile() {
  # shellcheck disable=SC2086
  if ! "$BSPCC" $CFLAGS "$here/programs/$1.c" -o "$work/$1" 2>"$work/cc.err"; then
    echo "FAIL: bspcc could not compile $1.c"; cat "$work/cc.err"; fail=1
  fi
}

# expect STATUS PATTERN -- command...: the exit status, and a line of the output matching PATTERN.
expect() {
  local want="$1" pattern="$2"; shift 3
  local out status
  out="$(timeout 60 "$@" 2>&1 </dev/null)"; status=$?
  if [ "$status" != "$want" ]; then echo "FAIL: '$*' exited $status, expected $want"; echo "$out" | head -5; fail=1; return; fi
  if ! grep -qE -- "$pattern" <<<"$out"; then echo "FAIL: '$*' output lacks /$pattern/"; echo "$out" | head -5; fail=1; return; fi
  # Bad usage is one line (CLI11's help is not dumped after it).
  if [ "$want" = 2 ] && [ "$(grep -c . <<<"$out")" != 1 ]; then
    echo "FAIL: '$*' printed more than one line for bad usage:"; echo "$out" | head -5; fail=1
  fi
}

# no_leftovers WHAT: no process of a program compiled into $work, nothing left in $TMPDIR.
no_leftovers() {
  local procs left
  procs="$(pgrep -af -- "$work/" | grep -v pgrep || true)"
  if [ -n "$procs" ]; then echo "FAIL: $1: processes left behind:"; echo "$procs"; fail=1; fi
  left="$(ls -A "$TMPDIR")"
  if [ -n "$left" ]; then echo "FAIL: $1: temporary files left in \$TMPDIR: $left"; fail=1; rm -rf "${TMPDIR:?}"/*; fi
}

# valid_reports JSON SARIF JUNIT [PYTHON-ASSERTIONS]: each parses, with the expected top-level
# structure; the assertions see j (JSON), s (SARIF) and x (JUnit root element).
valid_reports() {
  python3 - "$1" "$2" "$3" "${4:-}" <<'PY' || fail=1
import json, sys
import xml.etree.ElementTree as ET
j = json.load(open(sys.argv[1]))
assert j["format"] == "bsp-check-runs" and isinstance(j["runs"], list) and j["total"] == len(j["runs"]), j
s = json.load(open(sys.argv[2]))
assert s["version"] == "2.1.0" and s["$schema"].endswith("sarif-2.1.0.json"), s.keys()
assert len(s["runs"]) == 1 and s["runs"][0]["tool"]["driver"]["name"] == "bsp-check"
inv = s["runs"][0]["invocations"]
assert len(inv) == 1 and isinstance(inv[0]["executionSuccessful"], bool)
assert isinstance(s["runs"][0]["results"], list)
x = ET.parse(sys.argv[3]).getroot()
assert x.tag == "testsuites" and x.find("testsuite") is not None
exec(sys.argv[4])
PY
  # The SARIF log against the SARIF 2.1.0 object model (interrupted and failing sessions too).
  python3 "$here/../tools/sarif_object_model.py" "$2" >/dev/null || {
    echo "FAIL: $2 does not fit the SARIF 2.1.0 object model:"; python3 "$here/../tools/sarif_object_model.py" "$2"; fail=1
  }
}

finish() {
  [ "$fail" = 0 ] && echo "$1: ok"
  exit "$fail"
}
