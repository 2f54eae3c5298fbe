#!/usr/bin/env bash
# The bsp-check driver's contract: exit statuses, clear one-line errors for bad input, option
# handling, stdin fed to every run, reproduce lines that reproduce.
set -uo pipefail
bspcheck="$1"; good="$2"; buggy="$3"
fail=0
expect() {  # expect STATUS PATTERN -- command...
  local want="$1" pattern="$2"; shift 3
  local out status
  out="$("$@" 2>&1 </dev/null)"; status=$?
  if [ "$status" != "$want" ]; then echo "FAIL: '$*' exited $status, expected $want"; echo "$out" | head -20; fail=1; return; fi
  if ! grep -qE -- "$pattern" <<<"$out"; then echo "FAIL: '$*' output lacks /$pattern/"; echo "$out" | head -20; fail=1; fi
}
expect 0 "runs clean"                      -- "$bspcheck" run -p 1-3 --seeds 3 "$good"
expect 0 "runs clean"                      -- "$bspcheck" -p 2 --seeds 2 "$good"
# --seed takes the options table's syntax, as seed= of BSPCHECK_OPTIONS does: 0x10 is seed 16.
expect 0 "seeds 16\.\.16"                 -- "$bspcheck" run -p 2 --seed 0x10 "$good"
expect 0 "seeds 16\.\.17"                 -- "$bspcheck" run -p 2 --seed 0x10 --seeds 2 "$good"
expect 2 "p must be at least 1"            -- "$bspcheck" run -p 0 "$good"
expect 2 "expected a number"               -- "$bspcheck" run -p abc "$good"
expect 2 "no such file"                    -- "$bspcheck" run ./does-not-exist
expect 2 "not linked with the bsp-check runtime" -- "$bspcheck" run /bin/true
expect 2 "not an ELF executable"           -- "$bspcheck" run "$0"
expect 2 "no PROGRAM"                      -- "$bspcheck" run -p 2
expect 0 "Usage"                           -- "$bspcheck" --help
# The searches over runs are explore's: run refuses them in one line that says where they are.
for search in coverage bounded; do
  out="$("$bspcheck" run --strategy "$search" "$good" 2>&1)"; status=$?
  [ "$status" = 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && grep -q "bsp-check explore --strategy $search" <<<"$out" ||
    { echo "FAIL: run --strategy $search: exit $status: $out"; fail=1; }
done
expect 2 "use bsp-check explore --strategy coverage" -- env BSPCHECK_OPTIONS=strategy=coverage "$good"
expect 2 "BSPCHECK_OPTIONS: unknown option" -- env BSPCHECK_OPTIONS=bogus=1 "$good"
expect 2 "procs: must be at least 1"       -- env BSPCHECK_OPTIONS=procs=0 "$good"
expect 2 "more than the"                   -- env BSPCHECK_OPTIONS=procs=100000000 "$good"
expect 2 "expected key=value, got 'seed'"  -- env BSPCHECK_OPTIONS=procs=2:seed "$good"
expect 2 "disable: unknown rule 'bogus'"   -- env BSPCHECK_OPTIONS=disable=put-collision,bogus "$good"
expect 2 "disable: expected rule ids"     -- env BSPCHECK_OPTIONS=disable=put-collision,,bogus "$good"
expect 0 "Hello"                           -- env BSPCHECK_OPTIONS=::procs=2::disable=put-collision,reg-leak: "$good"
# The rule catalogue: a text table (id, severity, statement) and JSON with every column.
expect 0 "^bounds-put +error +a put may not write past .*\(BSPlib 3\.2\.4 \(3\)\)$" -- "$bspcheck" --list-rules
expect 0 "^put-collision +warning +when several"  -- "$bspcheck" --list-rules
expect 0 "^expect-mismatch +error +\(reserved\) " -- "$bspcheck" --list-rules
expect 0 '"help": "keep offset \+ nbytes'     -- "$bspcheck" --list-rules --json
expect 2 "bogus"                           -- "$bspcheck" --list-rules --bogus

# A failing run prints its reproduce line, and that line reproduces the failure with identical output.
# Given input, its reproduction needs the same input: said after the reproduce lines, not otherwise.
out="$("$bspcheck" run -p 4 --seeds 50 "$buggy" 2>&1 </dev/null)"
grep -q "give a reproduction the same input" <<<"$out" && { echo "FAIL: input reminder without input"; fail=1; }
out="$(echo some input | "$bspcheck" run -p 4 --seeds 50 "$buggy" 2>&1)"
grep -A1 "reproduce: " <<<"$out" | grep -q "give a reproduction the same input" ||
  { echo "FAIL: no input reminder after a piped input"; echo "$out" | tail -4; fail=1; }
out="$("$bspcheck" run -p 4 --seeds 50 "$buggy" 2>&1)"; status=$?
[ "$status" = 1 ] || { echo "FAIL: the buggy example was not found (status $status)"; echo "$out" | tail; fail=1; }
repro="$(grep -m1 -oE 'reproduce: bsp-check run .*' <<<"$out" | sed 's/^reproduce: bsp-check //')"
if [ -n "$repro" ]; then
  # shellcheck disable=SC2086
  a="$("$bspcheck" $repro 2>&1)"; sa=$?
  # shellcheck disable=SC2086
  b="$("$bspcheck" $repro 2>&1)"; sb=$?
  [ "$sa" = 1 ] && [ "$sb" = 1 ] || { echo "FAIL: reproduce line did not fail again ($sa, $sb): $repro"; fail=1; }
  [ "$(grep -v ' in [0-9.]* s$' <<<"$a")" = "$(grep -v ' in [0-9.]* s$' <<<"$b")" ] || { echo "FAIL: two runs of '$repro' differ"; fail=1; }
else
  echo "FAIL: no reproduce line in:"; echo "$out" | tail; fail=1
fi

# --json writes every run.
tmp="$(mktemp)"
"$bspcheck" run -q -p 1-2 --seeds 3 --json "$tmp" "$good" >/dev/null 2>&1
python3 - "$tmp" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
assert j["total"] == 6 and j["failed"] == 0, j
assert sorted((r["procs"], r["seed"]) for r in j["runs"]) == [(p, s) for p in (1, 2) for s in (1, 2, 3)]
PY
rm -f "$tmp"
[ "$fail" = 0 ] && echo "cli test: ok"
exit "$fail"
