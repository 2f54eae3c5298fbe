#!/usr/bin/env bash
# docs/cli.md documents every key of BSPCHECK_OPTIONS: each key that `bsp-check --list-options
# --json` lists (the options table, runtime/options/options.def) appears as `key` in the first column of
# the table in the "## `BSPCHECK_OPTIONS`" section, and that column names no key the table lacks.
# Usage: options_docs_test.sh BSP-CHECK DOCS/CLI.MD
set -uo pipefail
b="$1"; doc="$2"
keys="$("$b" --list-options --json | python3 -c 'import json,sys; print("\n".join(o["key"] for o in json.load(sys.stdin)))')" ||
  { echo "FAIL: bsp-check --list-options --json"; exit 1; }
[ -n "$keys" ] || { echo "FAIL: no options listed"; exit 1; }
section="$(awk '$0 == "## `BSPCHECK_OPTIONS`" {on = 1; next} /^## / {on = 0} on' "$doc")"
documented="$(grep -E '^\| `' <<<"$section" | cut -d'|' -f2 | grep -oE '`[a-z_]+`' | tr -d '`' | sort -u)"
fail=0
for k in $keys; do
  grep -qx "$k" <<<"$documented" || { echo "FAIL: docs/cli.md does not document the option '$k'"; fail=1; }
done
for k in $documented; do
  grep -qx "$k" <<<"$keys" || { echo "FAIL: docs/cli.md documents '$k', which is not an option"; fail=1; }
done
[ "$fail" = 0 ] && echo "options docs test: ok ($(wc -l <<<"$keys") options)"
exit "$fail"
