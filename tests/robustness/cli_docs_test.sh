#!/usr/bin/env bash
# docs/cli.md documents every option of every command: each long option that `bsp-check CMD
# --help` lists appears (as `--option`) in the "## CMD" section of docs/cli.md, `bsp-check
# --help` names every command, and the Usage line of each command's help is its line in the
# synopsis at the top of docs/cli.md (spaces aside).
# Usage: cli_docs_test.sh BSP-CHECK DOCS/CLI.MD
set -uo pipefail
b="$1"; doc="$2"
fail=0
commands="run replay debug shrink show explore merge stats"
top="$("$b" --help)"
for cmd in $commands; do
  grep -qE "^  $cmd " <<<"$top" || { echo "FAIL: bsp-check --help does not list the command '$cmd'"; fail=1; }
  help="$("$b" "$cmd" --help)" || { echo "FAIL: bsp-check $cmd --help failed"; fail=1; continue; }
  # Its synopsis: the first code block's line for the command, as its help says it (show's said
  # "TRACE" where the command takes several traces).
  usage="$(sed -n 's/^Usage: //p' <<<"$help" | tr -s ' ')"
  name="bsp-check $cmd "; [ "$cmd" = run ] && name="bsp-check [run] "
  synopsis="$(awk '/^```/ {n++; next} n == 1' "$doc" | tr -s ' ' | grep -F -- "$name" | head -1)"
  [ -n "$usage" ] && [ "$usage" = "$synopsis" ] ||
    { echo "FAIL: bsp-check $cmd --help says 'Usage: $usage', docs/cli.md's synopsis '$synopsis'"; fail=1; }
  # The section of this command: from "## CMD" to the next "## " heading.
  section="$(awk -v h="## $cmd" '$0 == h {on = 1; next} /^## / {on = 0} on' "$doc")"
  [ -n "$section" ] || { echo "FAIL: docs/cli.md has no section '## $cmd'"; fail=1; continue; }
  # CLI11 lists an option at the start of a line: "  -o,--output TEXT", "  --no-check".
  options="$(grep -oE -- '^ +(-[a-zA-Z],)?--[a-z][a-z0-9-]*' <<<"$help" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)"
  [ -n "$options" ] || { echo "FAIL: no options found in bsp-check $cmd --help"; fail=1; }
  for opt in $options; do
    [ "$opt" = --help ] && [ "$cmd" != run ] && continue  # every command has it; said once
    grep -qE -- "\`([^\`]*[ ,])?$opt([ ,=][^\`]*)?\`" <<<"$section" ||
      { echo "FAIL: docs/cli.md, section '$cmd', does not document $opt"; fail=1; }
  done
done
grep -q "run\` is the only command" "$doc" && { echo "FAIL: docs/cli.md still says run is the only command"; fail=1; }
[ "$fail" = 0 ] && echo "cli docs test: ok"
exit "$fail"
