#!/usr/bin/env bash
# bsp-check run --shard and bsp-check merge (tools/launch/shard.hpp, tools/commands/merge_command.hpp):
#  - the shards of a session are disjoint and their union is the unsharded session, findings and
#    schedule-divergence included (a program whose output depends on the schedule);
#  - merge is order-independent and idempotent (a report merged with itself, or merged reports
#    merged again, give the same report);
#  - stats of the shards, in any order, is the stats of the unsharded session;
#  - the merged SARIF and JUnit are valid; bad shards and bad inputs exit 2 with one line.
# Usage: shard_merge_test.sh BSP-CHECK PROGRAM-WITH-SCHEDULE-DEPENDENT-OUTPUT CLEAN-PROGRAM
set -uo pipefail
b="$1"; prog="$2"; clean="$3"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
# The first failing run's trace is kept in the current folder: this test's own, not the folder
# that the other tests running beside it share.
cd "$work" || exit 1
fail=0
say() { echo "FAIL: $*"; fail=1; }

n=3
for i in $(seq 0 $((n - 1))); do
  "$b" run -q -p 2,3 --seeds 7 --keep-going --shard "$i/$n" --json "$work/s$i.json" "$prog" >/dev/null 2>&1
  [ $? -le 1 ] || say "shard $i/$n exited $?"
done
"$b" run -q -p 2,3 --seeds 7 --keep-going --json "$work/all.json" "$prog" >/dev/null 2>&1
"$b" merge --json "$work/m1.json" --sarif "$work/m1.sarif" --junit "$work/m1.xml" "$work/s2.json" "$work/s0.json" "$work/s1.json" 2>"$work/merge.err"
status=$?
"$b" merge --json "$work/m2.json" "$work/s0.json" "$work/s1.json" "$work/s1.json" "$work/s2.json" 2>/dev/null
"$b" merge --json "$work/m3.json" "$work/m1.json" "$work/m2.json" "$work/s0.json" 2>/dev/null
python3 - "$work" "$status" <<'PY' || fail=1
import json, sys, xml.dom.minidom
work, status = sys.argv[1], int(sys.argv[2])
load = lambda f: json.load(open(f"{work}/{f}"))
whole, m1, m2, m3 = load("all.json"), load("m1.json"), load("m2.json"), load("m3.json")
shards = [load(f"s{i}.json") for i in range(3)]
key = lambda r: (r["procs"], r["seed"])
bad = 0
def check(ok, what):
    global bad
    if not ok:
        print("FAIL:", what); bad = 1
keys = [set(map(key, s["runs"])) for s in shards]
check(all(not (keys[i] & keys[j]) for i in range(3) for j in range(i + 1, 3)), "shards overlap")
check(set().union(*keys) == set(map(key, whole["runs"])), "the shards' runs are not the session's runs")
strip = lambda runs: sorted(({k: v for k, v in r.items() if k != "seconds"} for r in runs), key=key)
check(strip(m1["runs"]) == strip(whole["runs"]), "merged runs differ from the unsharded session's (findings or results)")
check(whole["failed"] > 0 and m1["failed"] == whole["failed"], f"failed: merged {m1['failed']}, whole {whole['failed']}")
check(m1["planned"] == whole["planned"] == len(whole["runs"]), "planned runs")
check(m1["coverage"] == whole["coverage"] and whole["coverage"]["tuples"] == len(whole["coverage"]["reached"]) > 0,
      f"the shards' coverage is not the session's: {m1.get('coverage')} against {whole.get('coverage')}")
check(m1 == m2, "merge depends on the order or repetition of its inputs")
check(m1 == m3, "merging merged reports again changes them")
check(status == 1, f"merge of failing runs exited {status}, not 1")
sarif = load("m1.sarif")
check(sarif["version"] == "2.1.0" and len(sarif["runs"][0]["results"]) > 0, "merged SARIF has no results")
dom = xml.dom.minidom.parse(f"{work}/m1.xml")
cases = dom.getElementsByTagName("testcase")
check(len(cases) == len(whole["runs"]), f"JUnit has {len(cases)} test cases")
sys.exit(bad)
PY
grep -q "first failure p=" "$work/merge.err" || say "merge does not name the first failure: $(cat "$work/merge.err")"

# As many shards as runs: each shard's one run is compared with the session's reference run, as
# a shard of many runs is (a single run of its own is not compared with anything), so the merge
# of the 14 is still the unsharded session, schedule-divergence included.
n=14
for i in $(seq 0 $((n - 1))); do
  "$b" run -q -p 2,3 --seeds 7 --keep-going --shard "$i/$n" --json "$work/one$i.json" "$prog" >/dev/null 2>&1
  [ $? -le 1 ] || say "shard $i/$n exited $?"
done
"$b" merge --json "$work/ones.json" "$work"/one*.json 2>/dev/null
python3 - "$work" <<'PY' || fail=1
import json, sys
work = sys.argv[1]
whole, ones = json.load(open(f"{work}/all.json")), json.load(open(f"{work}/ones.json"))
key = lambda r: (r["procs"], r["seed"])
strip = lambda runs: sorted(({k: v for k, v in r.items() if k != "seconds"} for r in runs), key=key)
if strip(ones["runs"]) != strip(whole["runs"]):
    differ = [(a, b) for a, b in zip(strip(ones["runs"]), strip(whole["runs"])) if a != b][:1]
    print("FAIL: one-run shards merged differ from the unsharded session:", differ)
    sys.exit(1)
PY
# stats of the shards, in any order, is the stats of the unsharded session: the same counts, and
# the same first failing runs listed (they followed the order of the inputs).
"$b" stats --json "$work/all.json" >"$work/stats.all" 2>&1 || say "stats of the session exited $?"
for order in "s0 s1 s2" "s2 s1 s0" "s1 s2 s0"; do
  files=(); for f in $order; do files+=("$work/$f.json"); done
  "$b" stats --json "${files[@]}" >"$work/stats.shards" 2>&1 || say "stats of shards $order exited $?"
  cmp -s "$work/stats.all" "$work/stats.shards" ||
    say "stats of shards $order differ from the session's: $(diff "$work/stats.all" "$work/stats.shards" | head -4)"
done

# Bad usage and bad input: exit 2, one line.
expect2() {
  local out; out="$("$@" 2>&1)"; local st=$?
  [ "$st" = 2 ] || say "'$*' exited $st, not 2"
  [ "$(printf '%s\n' "$out" | grep -c 'bsp-check: error')" -ge 1 ] || say "'$*' said: $out"
}
expect2 "$b" run --shard 3/3 "$clean"
expect2 "$b" run --shard 1 "$clean"
expect2 "$b" run --shard -1/4 "$clean"
echo '{"not": "a report"}' >"$work/bad.json"
expect2 "$b" merge "$work/bad.json"
# A report whose fields have other types (hand-edited, another tool's): refused, never half-read.
for bad in '{"format":"bsp-check-runs","program":"p","runs":[{"procs":"x","seed":1,"passed":true}]}' \
           '{"format":"bsp-check-runs","program":7,"runs":[]}' \
           '{"format":"bsp-check-runs","program":"p","options":"x","runs":[]}' \
           '{"format":"bsp-check-runs","program":"p","runs":[{"procs":1,"seed":-1,"passed":true}]}' \
           '[1,2,3]'; do
  printf '%s' "$bad" >"$work/hostile.json"
  expect2 "$b" merge "$work/hostile.json"
done
expect2 "$b" merge "$work/missing.json"
"$b" run -q -p 2 --seeds 2 --json "$work/other.json" "$clean" >/dev/null 2>&1
expect2 "$b" merge "$work/s0.json" "$work/other.json"
# A clean merge exits 0.
"$b" merge --json "$work/clean.json" "$work/other.json" 2>/dev/null || say "merge of clean runs exited $?"

[ "$fail" = 0 ] && echo "shard and merge test: ok"
exit "$fail"
