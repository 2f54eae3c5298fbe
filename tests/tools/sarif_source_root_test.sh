#!/usr/bin/env bash
# SARIF from a build directory (issue 43, item 4): CI runs bsp-check in the build directory, so
# without --source-root a source of the checkout is outside %SRCROOT% and gets an absolute
# file:// URI, which code scanning cannot map onto the repository. With --source-root CHECKOUT
# (run, explore, merge) every source is {"uri": "src/...", "uriBaseId": "%SRCROOT%"} and
# %SRCROOT% is the checkout. Both ways of compiling are covered: an absolute source path (what
# CMake passes) and one relative to the build directory.
#   sarif_source_root_test.sh BSP_CHECK BSPCC [CFLAGS]
set -uo pipefail
bspcheck="$1"; bspcc="$2"; cflags="${3:-}"
here="$(cd "$(dirname "$0")" && pwd)"
fail=0
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
checkout="$tmp/checkout"
mkdir -p "$checkout/src" "$checkout/build"
cp "$here/../../examples/checks/bounds_put.c" "$checkout/src/bounds_put.c"
bug_line="$(grep -n 'BUG: bounds-put' "$checkout/src/bounds_put.c" | cut -d: -f1)"
cd "$checkout/build" || exit 1
# shellcheck disable=SC2086
"$bspcc" $cflags -g -o abs_prog "$checkout/src/bounds_put.c" || { echo "FAIL: bspcc (absolute path)"; exit 1; }
# shellcheck disable=SC2086
"$bspcc" $cflags -g -o rel_prog ../src/bounds_put.c || { echo "FAIL: bspcc (relative path)"; exit 1; }

# check_log LOG ROOT WANT: every location of the bounds-put result in LOG is src/bounds_put.c
# under %SRCROOT% (WANT=relative), or an absolute file:// URI (WANT=absolute); %SRCROOT% is ROOT.
check_log() {
  python3 - "$1" "$2" "$3" "$bug_line" <<'EOF' || fail=1
import json, os, sys
log, root, want, line = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
run = json.load(open(log))["runs"][0]
base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
expected_base = "file://" + os.path.realpath(root) + "/"
assert base == expected_base, f"{log}: %SRCROOT% is {base}, expected {expected_base}"
results = [r for r in run["results"] if r["ruleId"] == "bounds-put"]
assert results, f"{log}: no bounds-put result"
for r in results:
    for loc in r["locations"]:
        art = loc["physicalLocation"]["artifactLocation"]
        assert loc["physicalLocation"]["region"]["startLine"] == line, loc
        if want == "relative":
            assert art == {"uri": "src/bounds_put.c", "uriBaseId": "%SRCROOT%"}, f"{log}: {art}"
        else:
            assert "uriBaseId" not in art and art["uri"].startswith("file:///") and \
                art["uri"].endswith("/checkout/src/bounds_put.c"), f"{log}: {art}"
print(f"ok: {os.path.basename(log)}: {want} URIs, %SRCROOT% {base}")
EOF
  python3 "$here/sarif_object_model.py" "$1" >/dev/null || { echo "FAIL: $1 breaks the SARIF object model"; fail=1; }
}

for prog in abs_prog rel_prog; do
  # Without --source-root the working directory (the build directory) is the root: the source
  # is outside it. The JSON report is kept for merge below.
  "$bspcheck" run -q -p 2 --seeds 2 --sarif "$tmp/$prog.cwd.sarif" --json "$tmp/$prog.json" ./$prog >/dev/null 2>&1
  check_log "$tmp/$prog.cwd.sarif" "$checkout/build" absolute
  "$bspcheck" run -q -p 2 --seeds 2 --sarif "$tmp/$prog.sarif" --source-root .. ./$prog >/dev/null 2>&1
  check_log "$tmp/$prog.sarif" "$checkout" relative
done
# merge and explore take it too.
"$bspcheck" merge --sarif "$tmp/merged.sarif" --source-root "$checkout" "$tmp/abs_prog.json" >/dev/null 2>&1
check_log "$tmp/merged.sarif" "$checkout" relative
# A merge in another folder than the runs' (the checkout, as a CI job's next step runs): the
# program compiled as ../src/bounds_put.c is named so in the JSON, relative to the build
# directory the report's "directory" names; the SARIF still has src/bounds_put.c under %SRCROOT%.
python3 - "$tmp/rel_prog.json" "$checkout/build" <<'EOF' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
assert j["directory"] == sys.argv[2], j.get("directory")
files = {l["file"] for r in j["runs"] for f in r["findings"] for l in f["locations"]}
assert files == {"../src/bounds_put.c"}, files
EOF
(cd "$checkout" && "$bspcheck" merge --sarif "$tmp/merged_elsewhere.sarif" --json "$tmp/merged_elsewhere.json" \
  --source-root . "$tmp/rel_prog.json" >/dev/null 2>&1)
check_log "$tmp/merged_elsewhere.sarif" "$checkout" relative
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["directory"] == sys.argv[2]' \
  "$tmp/merged_elsewhere.json" "$checkout/build" || { echo "FAIL: the merged JSON lost its directory"; fail=1; }
"$bspcheck" explore -q -p 2 --bound 0 --trace-dir "$tmp" --sarif "$tmp/explore.sarif" --json "$tmp/explore.json" \
  --source-root .. ./abs_prog >/dev/null 2>&1
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["directory"] == sys.argv[2]' \
  "$tmp/explore.json" "$checkout/build" || { echo "FAIL: explore's JSON has no directory"; fail=1; }
check_log "$tmp/explore.sarif" "$checkout" relative
# A root that is no folder is refused before any run.
for cmd in run explore; do
  out="$("$bspcheck" $cmd --sarif "$tmp/x.sarif" --source-root "$tmp/no-such-dir" ./abs_prog 2>&1)"; st=$?
  [ "$st" = 2 ] && grep -q -- "--source-root" <<<"$out" ||
    { echo "FAIL: $cmd --source-root NO-SUCH-DIR exited $st: $out"; fail=1; }
done
[ "$fail" = 0 ] && echo "sarif source-root test: ok"
exit "$fail"
