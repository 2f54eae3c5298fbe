#!/usr/bin/env bash
# bsp-check run's reports and rule control: --sarif, --junit, --werror, --disable, --suppressions,
# --no-check, the summary of findings repeated across seeds, and the final summary line.
#   report_test.sh BSP_CHECK HELLO RING_HP_RACE CHECKS_DIR BSPCC [CFLAGS]
# CHECKS_DIR holds examples/checks (one buggy program per rule); BSPCC compiles a test program
# (with CFLAGS, e.g. the sanitizer flags of the build).
set -uo pipefail
bspcheck="$1"; good="$2"; buggy="$3"; checks="$4"; bspcc="$5"; cflags="${6:-}"
fail=0
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
expect() {  # expect STATUS PATTERN -- command...
  local want="$1" pattern="$2"; shift 3
  local out status
  out="$("$@" 2>&1 </dev/null)"; status=$?
  if [ "$status" != "$want" ]; then echo "FAIL: '$*' exited $status, expected $want"; echo "$out" | tail -20; fail=1; return; fi
  if ! grep -qE -- "$pattern" <<<"$out"; then echo "FAIL: '$*' output lacks /$pattern/"; echo "$out" | tail -20; fail=1; fi
}
lacks() {  # lacks PATTERN -- command...: the output must not match
  local pattern="$1"; shift 2
  if "$@" 2>&1 </dev/null | grep -qE -- "$pattern"; then echo "FAIL: '$*' output has /$pattern/"; fail=1; fi
}

# --- help documents every option ---------------------------------------------------------------
for opt in --sarif --junit --werror --disable --suppressions --no-check --json --keep-going; do
  expect 0 "$opt" -- "$bspcheck" run --help
done

# --- --werror: a warning-only program passes, and fails with --werror ---------------------------
warn="$checks/put_collision"
expect 0 "warning\[put-collision\]"        -- "$bspcheck" run -p 2-4 --seeds 5 "$warn"
expect 0 "clean .*with warnings"           -- "$bspcheck" run -p 2-4 --seeds 5 "$warn"
expect 1 "warning\[put-collision\]"        -- "$bspcheck" run -p 2-4 --seeds 5 --werror "$warn"
expect 1 "reproduce: bsp-check run .*--werror" -- "$bspcheck" run -p 2-4 --seeds 5 --werror "$warn"
# ... and the reproduce line of a --werror failure fails again (it carries --werror).
repro="$("$bspcheck" run -p 2 --seeds 3 --werror "$warn" 2>&1 | grep -m1 -oE 'reproduce: bsp-check run .*' | sed 's/^reproduce: bsp-check //')"
# No reproduce line at all is a failure too (an empty command must not pass for one that fails).
if [ -z "$repro" ]; then
  echo "FAIL: a --werror failure printed no reproduce line"; fail=1
else
  # shellcheck disable=SC2086
  "$bspcheck" $repro >/dev/null 2>&1; st=$?
  [ "$st" = 1 ] || { echo "FAIL: --werror reproduce line '$repro' exited $st, expected 1"; fail=1; }
fi

# --- --disable -----------------------------------------------------------------------------------
err="$checks/bounds_put"
expect 1 "error\[bounds-put\]"             -- "$bspcheck" run -p 2-4 --seeds 5 "$err"
expect 0 "runs clean"                      -- "$bspcheck" run -p 2-4 --seeds 5 --disable bounds-put "$err"
expect 0 "runs clean"                      -- "$bspcheck" run -p 2-4 --seeds 5 --disable put-collision,bounds-put "$err"
expect 0 "runs clean"                      -- "$bspcheck" run -p 2-4 --seeds 5 --disable put-collision --disable bounds-put "$err"
expect 0 "runs clean"                      -- "$bspcheck" run -p 2-4 --seeds 5 --werror --disable put-collision "$warn"
expect 1 "error\[bounds-put\]"             -- "$bspcheck" run -p 2-4 --seeds 5 --disable put-collision "$err"
expect 2 "^bsp-check: error: --disable: unknown rule 'no-such-rule'" -- "$bspcheck" run --disable no-such-rule "$err"
expect 2 "unknown rule 'bogus'"            -- "$bspcheck" run --disable bounds-put,bogus "$err"
n="$("$bspcheck" run --disable bogus "$err" 2>&1 | wc -l)"
[ "$n" = 1 ] || { echo "FAIL: --disable bogus printed $n lines, expected a one-line error"; fail=1; }
# bsp_abort halts the program whatever is reported: disabling the rule hides the finding, not the exit.
expect 1 "exited with status 1"            -- "$bspcheck" run -p 4 --seeds 5 --disable abort "$checks/abort"
lacks "error\[abort\]"                     -- "$bspcheck" run -p 4 --seeds 5 --disable abort "$checks/abort"

# --- --suppressions ------------------------------------------------------------------------------
line="$(grep -n 'BUG: bounds-put' "$(dirname "$0")/../../examples/checks/bounds_put.c" | cut -d: -f1)"
[ -n "$line" ] || { echo "FAIL: no 'BUG: bounds-put' line in examples/checks/bounds_put.c"; fail=1; line=1; }
printf '# known\nbounds-put bounds_put.c:%s\n' "$line" >"$tmp/supp"
expect 0 "runs clean"                      -- "$bspcheck" run -p 2-4 --seeds 5 --suppressions "$tmp/supp" "$err"
expect 1 "reproduce: bsp-check run .*--suppressions" -- "$bspcheck" run -p 2-4 --seeds 5 --werror --suppressions "$tmp/supp" "$warn"
printf 'bounds-put bounds_put.c:%s\n' "$((line + 1000))" >"$tmp/supp-other"
expect 1 "error\[bounds-put\]"             -- "$bspcheck" run -p 2-4 --seeds 5 --suppressions "$tmp/supp-other" "$err"
expect 2 "^bsp-check: error: --suppressions .*cannot read" -- "$bspcheck" run --suppressions "$tmp/none" "$err"
printf 'no-such-rule\n' >"$tmp/supp-bad"
expect 2 "supp-bad:1: unknown rule 'no-such-rule'" -- "$bspcheck" run --suppressions "$tmp/supp-bad" "$err"
printf 'bounds-put a.c b.c\n' >"$tmp/supp-bad2"
expect 2 "supp-bad2:1: expected"           -- "$bspcheck" run --suppressions "$tmp/supp-bad2" "$err"

# --- --no-check: the checker's multi-call rules are off; errors of the primitives stay ---------
expect 1 "error\[hp-src-modified\]"        -- "$bspcheck" run -p 2-4 --seeds 5 "$checks/hp_src_modified"
expect 0 "runs clean"                      -- "$bspcheck" run -p 2-4 --seeds 5 --no-check "$checks/hp_src_modified"
expect 0 "runs clean \(p = 2-4; seeds 1..5\) in [0-9.]+ s$" -- "$bspcheck" run -p 2-4 --seeds 5 --no-check "$warn"
expect 1 "reproduce: bsp-check run .*--no-check" -- "$bspcheck" run -p 2 --seeds 3 --no-check "$err"

# --- repeated findings: shown in full once, then one table; a final summary line (not a tty) ----
"$bspcheck" run -p 2-4 --seeds 40 --keep-going --json "$tmp/runs.json" "$err" >"$tmp/out" 2>&1; st=$?
[ "$st" = 1 ] || { echo "FAIL: --keep-going over the bounds-put example exited $st"; fail=1; }
python3 - "$tmp/runs.json" "$tmp/out" <<'PY' || fail=1
import json, re, sys
runs = json.load(open(sys.argv[1]))["runs"]
out = open(sys.argv[2], errors="replace").read()
assert len(runs) == 120, len(runs)
failing = [r for r in runs if not r["passed"]]
keys = {(f["rule"], f["message"], json.dumps(f["locations"], sort_keys=True)) for r in runs for f in r["findings"]}
assert len(failing) > len(keys), ("test needs repeats", len(failing), len(keys))
# every run's findings stay in --json
assert all(r["findings"] for r in failing), "a failing run lost its findings in --json"
shown = len(re.findall(r"^bsp-check: error\[bounds-put\]", out, re.M))
assert shown <= len(keys), f"{shown} findings printed in full for {len(keys)} distinct ones"
assert shown >= 1
table = re.search(r"^bsp-check: findings in (\d+) of 120 runs:\n  rule +location +runs +first seen\n((?:  .*\n)+)", out, re.M)
assert table, "no summary table:\n" + out[-2000:]
assert int(table.group(1)) == len(failing), table.group(0)
rows = table.group(2).splitlines()
row = [r for r in rows if r.split()[0] == "bounds-put"]
assert len(row) == 1, rows
cols = row[0].split()
assert re.search(r"bounds_put\.c:\d+$", cols[1]), cols
assert int(cols[2]) == len(failing), (cols, len(failing))
first = failing[0]
assert f"p={first['procs']} seed={first['seed']}" in row[0], (row, first)
last = out.rstrip("\n").splitlines()
summary = [l for l in last if re.match(r"bsp-check: \d+ of 120 runs FAILED \(p = 2-4; seeds 1..40\) in [0-9.]+ s", l)]
assert len(summary) == 1, last[-15:]
assert len(re.findall(r"^  reproduce: ", out, re.M)) <= 10, "reproduce lines are not bounded"
PY

# --- SARIF ---------------------------------------------------------------------------------------
"$bspcheck" run -q -p 2-4 --seeds 20 --keep-going --json "$tmp/s.json" --sarif "$tmp/out.sarif" "$err" >/dev/null 2>&1
"$bspcheck" run -q -p 2-3 --seeds 4 --keep-going --sarif "$tmp/warn.sarif" "$warn" >/dev/null 2>&1
"$bspcheck" run -q -p 1-2 --seeds 2 --sarif "$tmp/clean.sarif" "$good" >/dev/null 2>&1
"$bspcheck" --list-rules --json >"$tmp/rules.json"
# Against the SARIF 2.1.0 object model (Debian's python3-sarif-python-om, generated from the schema).
python3 "$(dirname "$0")/sarif_object_model.py" "$tmp/out.sarif" "$tmp/warn.sarif" "$tmp/clean.sarif" >/dev/null || {
  echo "FAIL: a SARIF report does not fit the SARIF 2.1.0 object model:"
  python3 "$(dirname "$0")/sarif_object_model.py" "$tmp/out.sarif" "$tmp/warn.sarif" "$tmp/clean.sarif" | grep -v "^ok"
  fail=1
}
python3 - "$tmp/out.sarif" "$tmp/s.json" "$tmp/warn.sarif" "$tmp/clean.sarif" "$tmp/rules.json" <<'PY' || fail=1
import json, sys
catalogue = {r["id"]: r for r in json.load(open(sys.argv[5]))}
def check(path, runs_json=None, expect_level=None, expect_rule=None):
    s = json.load(open(path))
    assert s["version"] == "2.1.0", s.get("version")
    assert s["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert isinstance(s["runs"], list) and len(s["runs"]) == 1
    run = s["runs"][0]
    d = run["tool"]["driver"]
    assert d["name"] == "bsp-check" and d["informationUri"].startswith("http")
    ids = [r["id"] for r in d["rules"]]
    assert len(ids) == len(set(ids)), "duplicate rule ids"
    for r in d["rules"]:
        assert r["shortDescription"]["text"], r
        assert r["defaultConfiguration"]["level"] in ("error", "warning"), r
    # The rule metadata is the catalogue's, every rule of it, in its order.
    assert ids[:len(catalogue)] == list(catalogue), ids
    for r in d["rules"][:len(catalogue)]:
        c = catalogue[r["id"]]
        assert r["defaultConfiguration"]["level"] == c["severity"], r
        assert r["shortDescription"]["text"].startswith(c["statement"]), r
        assert c["statement"] in r["fullDescription"]["text"] and c["source"] in r["fullDescription"]["text"], r
        assert r["help"]["text"].startswith(c["help"]), r
        assert r["properties"]["category"] == c["category"] and r["properties"]["reserved"] == c["reserved"], r
    assert {"bounds-put", "put-collision", "abort", "hp-src-modified"} <= set(ids)
    # Relative URIs resolve against %SRCROOT% (GitHub code scanning); others are file:// URIs.
    base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base.startswith("file:///") and base.endswith("/"), base
    sites = set()
    for res in run["results"]:
        for loc in res["locations"] + res.get("relatedLocations", []):
            art = loc["physicalLocation"]["artifactLocation"]
            assert art.get("uriBaseId") == "%SRCROOT%" or art["uri"].startswith("file:///"), art
        # One result per finding: the same rule at the same call sites is one result, whatever
        # the processes (they are its related locations).
        site = (res["ruleId"], tuple((l["physicalLocation"]["artifactLocation"]["uri"],
                                      l["physicalLocation"].get("region", {}).get("startLine")) for l in res["locations"]))
        assert site not in sites, ("a finding at other processes is a result of its own", site)
        sites.add(site)
    seen = set()
    for res in run["results"]:
        assert res["ruleId"] in ids, res["ruleId"]
        assert ids[res["ruleIndex"]] == res["ruleId"]
        assert res["level"] in ("error", "warning")
        assert res["message"]["text"]
        assert res["locations"], res
        for loc in res["locations"]:
            pl = loc["physicalLocation"]
            assert pl["artifactLocation"]["uri"] and pl["region"]["startLine"] >= 1, loc
        flows = res["codeFlows"][0]["threadFlows"]
        procs = res["properties"]["processes"]
        assert sorted(f["id"] for f in flows) == sorted(f"process {p}" for p in set(procs) |
               {int(l["message"]["text"].rsplit(" ", 1)[1]) for l in res["locations"]}), (flows, procs)
        for f in flows:
            assert f["locations"], f
            k = f["id"].split()[1]
            for tl in f["locations"]:
                text = tl["location"]["message"]["text"]
                assert text.endswith("process " + k) or text.startswith(f"process {k} is involved"), (f["id"], tl)
        p = res["properties"]
        for key in ("seed", "procs", "superstep", "reproduce"):
            assert key in p, (key, p)
        assert p["reproduce"].startswith(f"bsp-check run -p {p['procs']} --seed {p['seed']} "), p
        key = (res["ruleId"], res["message"]["text"], json.dumps(res["locations"], sort_keys=True))
        assert key not in seen, "a finding appears twice"
        seen.add(key)
        if expect_level: assert res["level"] == expect_level, res["level"]
        if expect_rule: assert res["ruleId"] == expect_rule, res["ruleId"]
    return run
run = check(sys.argv[1], expect_level="error", expect_rule="bounds-put")
runs = json.load(open(sys.argv[2]))["runs"]
total = sum(len(r["findings"]) for r in runs)
assert sum(r["properties"]["occurrences"] for r in run["results"]) == total
assert 1 <= len(run["results"]) < total, (len(run["results"]), total)
assert run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("bounds_put.c")
wr = check(sys.argv[3], expect_level="warning", expect_rule="put-collision")
assert wr["results"], "the warning example gave no SARIF result"
assert any(len(r["codeFlows"][0]["threadFlows"]) >= 2 for r in wr["results"]), "a collision involves two processes"
clean = check(sys.argv[4])
assert clean["results"] == []
PY

# --- JUnit ---------------------------------------------------------------------------------------
cat >"$tmp/weird.c" <<'C'
#include <stdio.h>
#include "bsp.h"
/* Output and an abort message full of what XML must escape, and a control character. */
int main(void) {
  bsp_begin(bsp_nprocs());
  printf("out <&> \"q\" 'a' \x01 ]]> %d\n", bsp_pid());
  if (bsp_pid() == 1) bsp_abort("weird <&> \"q\" 'a' \x02 ]]> end\n");
  bsp_sync();
  bsp_end();
  return 0;
}
C
# shellcheck disable=SC2086
if "$bspcc" $cflags "$tmp/weird.c" -o "$tmp/weird" 2>"$tmp/cc.err"; then
  "$bspcheck" run -q -p 1-2 --seeds 3 --keep-going --junit "$tmp/weird.xml" "$tmp/weird" 'x<&>"y' >/dev/null 2>&1
else
  echo "FAIL: bspcc could not compile the XML test program"; cat "$tmp/cc.err"; fail=1
fi
"$bspcheck" run -q -p 2-3 --seeds 5 --keep-going --json "$tmp/j.json" --junit "$tmp/ring.xml" "$buggy" >/dev/null 2>&1
"$bspcheck" run -q -p 1-2 --seeds 2 --junit "$tmp/clean.xml" "$good" >/dev/null 2>&1
python3 - "$tmp/ring.xml" "$tmp/j.json" "$buggy" "$tmp/clean.xml" "$good" "$tmp/weird.xml" <<'PY' || fail=1
import json, sys, xml.etree.ElementTree as ET
def suite(path, program):
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites", root.tag
    suites = root.findall("testsuite")
    assert len(suites) == 1
    s = suites[0]
    assert s.get("name") == "bsp-check " + program, s.get("name")
    cases = s.findall("testcase")
    assert int(s.get("tests")) == len(cases)
    assert int(s.get("failures")) == sum(1 for c in cases if c.find("failure") is not None)
    assert s.get("skipped") == "0" and not s.findall(".//skipped")
    return s, cases
s, cases = suite(sys.argv[1], sys.argv[3])
runs = json.load(open(sys.argv[2]))["runs"]
assert [c.get("name") for c in cases] == [f"p={r['procs']} seed={r['seed']}" for r in runs]
for c, r in zip(cases, runs):
    f = c.find("failure")
    assert (f is None) == r["passed"], (c.get("name"), r["passed"])
    if f is not None:
        assert f.get("message"), c.get("name")
        assert f"reproduce: bsp-check run -p {r['procs']} --seed {r['seed']} " in f.text, f.text
        for finding in r["findings"]:
            assert f"[{finding['rule']}]: superstep {finding['superstep']}: {finding['message']}" in f.text, f.text
assert any(c.find("failure") is not None for c in cases)
s, cases = suite(sys.argv[4], sys.argv[5])
assert len(cases) == 4 and s.get("failures") == "0"
s, cases = suite(sys.argv[6], sys.argv[6].rsplit("/", 1)[0] + "/weird")
assert len(cases) == 6
fails = [c.find("failure") for c in cases if c.find("failure") is not None]
assert len(fails) == 3, len(fails)  # p=2 aborts, p=1 does not
for f in fails:
    assert "weird <&> \"q\" 'a'" in f.get("message") and "]]> end" in f.get("message"), f.get("message")
    assert "x<&>\"y" in f.text, f.text
PY

[ "$fail" = 0 ] && echo "report test: ok"
exit "$fail"
