#!/usr/bin/env bash
# finding_locations_test.sh BSPCHECK BSPCC CFLAGS: findings name the program's line where the
# BSPlib call site does not say it. A finding raised in a thin wrapper (a C++ class in a header, a
# helper file named by --wrappers) names the user's line that called the wrapper, with the stack,
# in the text, the JSON and the SARIF report and on replay; a direct call has no stack. An
# uncaught std::bad_alloc is out-of-memory at the line that allocated.
BSPCHECK="$1" BSPCC="$2" CFLAGS="${3:-}"
source "$(dirname "$0")/lib.sh"
BSPCXX="$(dirname "$BSPCC")/bspcxx"
src="$here/programs/wrappers"
line_of() { grep -n "WRONG" "$src/$1" | cut -d: -f1; }
put_line="$(line_of wrapped_put.cpp)"
get_line="$(line_of wrapped_get.c)"
wrapper_put_line="$(grep -n "bsp_put(" "$src/registered.hpp" | cut -d: -f1)"
cd "$work" || exit 1

# The C++ wrapper, called (-O0) and inlined (-O2): located at the program's line either way.
for opt in -O0 -O2; do
  # shellcheck disable=SC2086
  "$BSPCXX" $CFLAGS -g $opt "$src/wrapped_put.cpp" -o "wrapped_put$opt" || { echo "FAIL: bspcxx $opt"; exit 1; }
  out="$("$BSPCHECK" run -p 3 --seeds 1 "./wrapped_put$opt" 2>&1)"; status=$?
  [ "$status" = 1 ] || { echo "FAIL: wrapped_put$opt exited $status"; echo "$out"; fail=1; }
  grep -qE "^  at .*wrapped_put.cpp:$put_line \(bsp_put, process [0-9]\)" <<<"$out" ||
    { echo "FAIL: wrapped_put$opt: not located at wrapped_put.cpp:$put_line"; echo "$out"; fail=1; }
  grep -q "called through a wrapper:" <<<"$out" || { echo "FAIL: wrapped_put$opt: no stack"; fail=1; }
  grep -qE "#0 Registered<int>::put_to.* at .*registered.hpp:$wrapper_put_line$" <<<"$out" ||
    { echo "FAIL: wrapped_put$opt: the stack lacks the wrapper's frame"; echo "$out"; fail=1; }
  grep -qE "#1 main at .*wrapped_put.cpp:$put_line$" <<<"$out" ||
    { echo "FAIL: wrapped_put$opt: the stack lacks the caller's frame"; echo "$out"; fail=1; }
done

# Which line registered a slot, through a helper in a header: the helper's line is the same for
# all, the callers' are not (reg-site-mismatch, a warning: --werror makes it fail the run). Called
# (-O0) and inlined (-O1, -O2); the same lines on every process are no finding either way.
for opt in -O0 -O1 -O2; do
  # shellcheck disable=SC2086
  "$BSPCXX" $CFLAGS -g $opt "$src/swapped_registration.cpp" -o swapped_registration || { echo "FAIL: bspcxx swapped"; exit 1; }
  out="$("$BSPCHECK" run -p 2 --seeds 1 --werror ./swapped_registration 2>&1)"; status=$?
  [ "$status" = 1 ] || { echo "FAIL: swapped_registration$opt exited $status"; echo "$out"; fail=1; }
  grep -q "warning\[reg-site-mismatch\]" <<<"$out" || { echo "FAIL: swapped registration through a wrapper ($opt) not found"; echo "$out"; fail=1; }
  for l in $(grep -n "// SITE" "$src/swapped_registration.cpp" | cut -d: -f1); do
    grep -qE "^  at .*swapped_registration.cpp:$l \(bsp_push_reg" <<<"$out" ||
      { echo "FAIL: reg-site-mismatch ($opt) does not name swapped_registration.cpp:$l"; echo "$out"; fail=1; }
  done
  # shellcheck disable=SC2086
  "$BSPCXX" $CFLAGS -g $opt "$src/same_registration.cpp" -o same_registration || { echo "FAIL: bspcxx same"; exit 1; }
  out="$("$BSPCHECK" run -p 1-4 --seeds 3 --werror ./same_registration 2>&1)" ||
    { echo "FAIL: same_registration$opt: the same lines on every process reported"; echo "$out"; fail=1; }
done

# A helper in its own C file: a direct call until --wrappers names the file.
# shellcheck disable=SC2086
"$BSPCC" $CFLAGS -g -O1 "$src/wrapped_get.c" "$src/wrap_lib.c" -o wrapped_get || { echo "FAIL: bspcc"; exit 1; }
out="$("$BSPCHECK" run -p 2 --seeds 1 ./wrapped_get 2>&1)"
grep -qE "^  at .*wrap_lib.c:[0-9]+ \(bsp_get" <<<"$out" || { echo "FAIL: without --wrappers: not at wrap_lib.c"; echo "$out"; fail=1; }
if grep -q "called through a wrapper" <<<"$out"; then echo "FAIL: a direct call has a stack"; fail=1; fi

out="$("$BSPCHECK" run -p 2 --seeds 1 --wrappers 'wrap_lib.c' --json r.json --sarif r.sarif ./wrapped_get 2>&1)"
grep -qE "^  at .*wrapped_get.c:$get_line \(bsp_get, process [01]\)" <<<"$out" ||
  { echo "FAIL: --wrappers: not located at wrapped_get.c:$get_line"; echo "$out"; fail=1; }
grep -qE "#0 get_pair at .*wrap_lib.c:[0-9]+$" <<<"$out" || { echo "FAIL: --wrappers: no get_pair frame"; echo "$out"; fail=1; }
grep -qE "reproduce: .*--wrappers wrap_lib.c" <<<"$out" || { echo "FAIL: the reproduce line drops --wrappers"; fail=1; }
python3 - "$get_line" <<'PY' || fail=1
import json, sys
line = int(sys.argv[1])
f = json.load(open("r.json"))["runs"][0]["findings"][0]
loc = f["locations"][0]
assert f["rule"] == "bounds-get" and loc["file"].endswith("wrapped_get.c") and loc["line"] == line, loc
assert [fr["function"] for fr in loc["stack"][:2]] == ["get_pair", "main"], loc["stack"]
assert loc["stack"][0]["file"].endswith("wrap_lib.c") and loc["stack"][1]["line"] == line, loc["stack"]
r = json.load(open("r.sarif"))["runs"][0]["results"][0]
assert r["locations"][0]["physicalLocation"]["region"]["startLine"] == line, r["locations"]
frames = r["stacks"][0]["frames"]
assert frames[0]["location"]["logicalLocations"][0]["fullyQualifiedName"] == "get_pair", frames
assert frames[1]["location"]["physicalLocation"]["region"]["startLine"] == line, frames
PY
python3 "$here/../tools/sarif_object_model.py" r.sarif >/dev/null || { echo "FAIL: r.sarif does not fit the SARIF object model"; fail=1; }
# The kept trace carries --wrappers (a checker option): its replay names the same line.
trace="$(ls ./wrapped_get*.trace 2>/dev/null | head -1)"
out="$("$BSPCHECK" replay "$trace" 2>&1)"
grep -qE "^  at .*wrapped_get.c:$get_line \(bsp_get" <<<"$out" || { echo "FAIL: replay: not at wrapped_get.c:$get_line"; echo "$out"; fail=1; }

# An allocation that throws std::bad_alloc: out-of-memory at the allocating line, with its stack.
# (AddressSanitizer's operator new never throws: it stops the program with its own report.)
alloc_line="$(grep -n "ALLOC" "$here/programs/bad_alloc.cpp" | tail -1 | cut -d: -f1)"
# shellcheck disable=SC2086
"$BSPCXX" $CFLAGS -g -O1 "$here/programs/bad_alloc.cpp" -o bad_alloc || { echo "FAIL: bspcxx bad_alloc"; exit 1; }
out="$("$BSPCHECK" run -p 2 --seeds 1 ./bad_alloc 2>&1)"; status=$?
[ "$status" = 1 ] || { echo "FAIL: bad_alloc exited $status"; echo "$out"; fail=1; }
if [[ "$CFLAGS" == *address* ]]; then
  grep -qE "AddressSanitizer.*(allocation-size-too-big|out of memory|requested allocation size)" <<<"$out" ||
    { echo "FAIL: bad_alloc under ASan: no ASan report"; echo "$out"; fail=1; }
else
  grep -qE "^bsp-check: error\[out-of-memory\]: superstep 1: process 1 ran out of memory" <<<"$out" ||
    { echo "FAIL: bad_alloc: no out-of-memory finding"; echo "$out"; fail=1; }
  grep -qE "^  at .*bad_alloc.cpp:$alloc_line \(allocation, process 1\)" <<<"$out" ||
    { echo "FAIL: bad_alloc: not located at bad_alloc.cpp:$alloc_line"; echo "$out"; fail=1; }
  grep -q "where the allocation failed:" <<<"$out" || { echo "FAIL: bad_alloc: no stack"; fail=1; }
fi

# A process that crashes or calls exit() in a helper: located at the helper's line, with the stack
# to main, and at the process's last BSPlib call. Without debug information: at the last call,
# with the raw backtrace. (Under AddressSanitizer a SIGSEGV is its report, not a crash finding.)
stops="$here/programs/stops_midway.c"
mark() { grep -n "/\* $1 \*/" "$stops" | cut -d: -f1; }
crash_line="$(mark CRASH)" exit_line="$(mark EXIT)" raise_line="$(mark RAISE)" last_line="$(mark LAST)"
# shellcheck disable=SC2086
"$BSPCC" $CFLAGS -g -O0 "$stops" -o stops_midway || { echo "FAIL: bspcc stops_midway"; exit 1; }
# shellcheck disable=SC2086
"$BSPCC" $CFLAGS -O0 -g0 "$stops" -o stops_midway_nodebug || { echo "FAIL: bspcc stops_midway (no -g)"; exit 1; }
located() {  # located NAME OUTPUT LINE EVENT: the finding names stops_midway.c:LINE (EVENT, process 1)
  grep -qE "^  at (.*/)?stops_midway.c:$3 \($4, process 1\)$" <<<"$2" ||
    { echo "FAIL: $1: not located at stops_midway.c:$3 ($4)"; echo "$2"; fail=1; }
}
events=(exit term usr1)
[[ "$CFLAGS" == *address* ]] || events+=(crash)
for how in "${events[@]}"; do
  out="$("$BSPCHECK" run -p 2 --seeds 1 --json "$how.json" ./stops_midway "$how" 2>&1)"; status=$?
  [ "$status" = 1 ] || { echo "FAIL: stops_midway $how exited $status"; echo "$out"; fail=1; }
  case "$how" in
    crash) line="$crash_line" event=signal heading="where the process crashed:" ;;
    exit) line="$exit_line" event=exit heading="where exit was called:" ;;
    *) line="$raise_line" event=signal heading="where the process crashed:"
       grep -q "error\[crash\]: superstep 1: process 1 sent itself SIG${how^^} " <<<"$out" ||
         { echo "FAIL: $how: not a crash finding of process 1"; echo "$out"; fail=1; } ;;
  esac
  located "$how" "$out" "$line" "$event"
  located "$how (last call)" "$out" "$last_line" bsp_sync
  grep -q "$heading" <<<"$out" || { echo "FAIL: $how: no stack"; echo "$out"; fail=1; }
  grep -qE "#[0-9] main at (.*/)?stops_midway.c:[0-9]+$" <<<"$out" || { echo "FAIL: $how: the stack does not reach main"; echo "$out"; fail=1; }
  if grep -qE "#[0-9] .*(program_[a-z_]+|world)\.cpp" <<<"$out"; then echo "FAIL: $how: the runtime's frames are shown"; echo "$out"; fail=1; fi
  python3 - "$how.json" "$line" "$last_line" "$event" <<'PY' || { echo "FAIL: $how: the JSON locations"; fail=1; }
import json, sys
f = json.load(open(sys.argv[1]))["runs"][0]["findings"][0]
got = [(l["file"].split("/")[-1], l["line"], l["call"]) for l in f["locations"]]
assert got == [("stops_midway.c", int(sys.argv[2]), sys.argv[4]), ("stops_midway.c", int(sys.argv[3]), "bsp_sync")], got
PY
done
# explore's failing schedule shows its finding as run does: process, superstep, file:line.
out="$("$BSPCHECK" explore -p 2 ./stops_midway exit 2>&1)"; status=$?
[ "$status" = 1 ] || { echo "FAIL: explore stops_midway exit exited $status"; echo "$out"; fail=1; }
located "explore exit" "$out" "$exit_line" exit
located "explore exit (last call)" "$out" "$last_line" bsp_sync
if [[ "$CFLAGS" != *address* ]]; then
  out="$("$BSPCHECK" run -p 2 --seeds 1 ./stops_midway_nodebug crash 2>&1)"
  located "crash without -g" "$out" "$last_line" bsp_sync
  grep -q "backtrace:" <<<"$out" || { echo "FAIL: crash without -g: no backtrace"; echo "$out"; fail=1; }
fi

# An exception nothing catches, thrown by the library on behalf of the program's line: located
# at that line, with the stack through the library to main, and at the last call.
throws="$here/programs/throws_midway.cpp"
throw_line="$(grep -n "/\* THROW \*/" "$throws" | cut -d: -f1)"
last_throw_line="$(grep -n "/\* LAST \*/" "$throws" | cut -d: -f1)"
caller_line="$(grep -n "/\* CALLER" "$throws" | cut -d: -f1)"
# shellcheck disable=SC2086
"$BSPCXX" $CFLAGS -g -O0 "$throws" -o throws_midway || { echo "FAIL: bspcxx throws_midway"; exit 1; }
out="$("$BSPCHECK" run -p 3 --seeds 2 ./throws_midway 2>&1)"; status=$?
[ "$status" = 1 ] || { echo "FAIL: throws_midway exited $status"; echo "$out"; fail=1; }
grep -qE "^  at (.*/)?throws_midway.cpp:$throw_line \(throw, process [12]\)$" <<<"$out" ||
  { echo "FAIL: throws_midway: not located at throws_midway.cpp:$throw_line (throw)"; echo "$out"; fail=1; }
grep -qE "^  at (.*/)?throws_midway.cpp:$last_throw_line \(bsp_sync, process [12]\)$" <<<"$out" ||
  { echo "FAIL: throws_midway: not located at its last call"; echo "$out"; fail=1; }
grep -q "where the exception was thrown:" <<<"$out" || { echo "FAIL: throws_midway: no stack"; echo "$out"; fail=1; }
grep -qE "#[0-9] std::vector.*::at\(" <<<"$out" || { echo "FAIL: throws_midway: no library frame"; echo "$out"; fail=1; }
grep -qE "#[0-9] main at (.*/)?throws_midway.cpp:$caller_line$" <<<"$out" ||
  { echo "FAIL: throws_midway: the stack lacks the caller's line"; echo "$out"; fail=1; }
! grep -q "probe" <<<"$out" || { echo "FAIL: throws_midway: the stack of a caught throw was taken"; echo "$out"; fail=1; }

# A bad pattern list is refused like any option: ':' separates BSPCHECK_OPTIONS.
expect 2 "wrappers" -- "$BSPCHECK" run --wrappers 'a:b' ./wrapped_get
no_leftovers "finding locations"
exit $fail
