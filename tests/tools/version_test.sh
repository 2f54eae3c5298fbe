#!/usr/bin/env bash
# version_test.sh BSP-CHECK PROGRAM VERSION_FILE PROJECT_VERSION: the version is made in one place
# (packaging/version.cmake) and every user of it says the same: `bsp-check --version`, the
# generated version.txt (what the Debian package is named after), and the header of a trace the
# program records (`bsp-check show --json`: tool_version). It is the project version, alone or
# with git build metadata (0.1.0+5.g4965788, 0.1.0+g4965788.dirty).
set -uo pipefail
driver="$1"; program="$2"; version_file="$3"; project_version="$4"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
version="$("$driver" --version | head -1)" || { echo "FAIL: bsp-check --version"; exit 1; }
version="${version#bsp-check }"  # its first line is "bsp-check VERSION" (the second: the watchpoint probe)
[ "$version" = "$(cat "$version_file")" ] || { echo "FAIL: --version says $version, version.txt $(cat "$version_file")"; exit 1; }
grep -qE "^${project_version//./\\.}(\+([0-9]+\.)?g[0-9a-f]{7,}(\.dirty)?|\+dirty)?$" <<<"$version" ||
  { echo "FAIL: '$version' is not $project_version with optional git metadata"; exit 1; }
"$driver" run -q -p 2 --seed 3 --trace "$work/run.trace" "$program" >/dev/null || { echo "FAIL: the traced run"; exit 1; }
recorded="$("$driver" show --json "$work/run.trace" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tool_version"])')"
[ "$recorded" = "$version" ] || { echo "FAIL: the trace header records '$recorded', not '$version'"; exit 1; }
echo "version test: ok ($version)"
