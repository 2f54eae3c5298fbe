#!/usr/bin/env bash
# scripts/check_format.sh [SOURCE_ROOT]: every C and C++ file of the source folders is laid out as
# .clang-format says (clang-format 14, from Debian's clang-format package). Prints the files that
# are not and exits 1; `clang-format -i FILE` lays one out.
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"
command -v clang-format >/dev/null || { echo "check_format: clang-format is not installed (scripts/setup.sh installs it)"; exit 1; }
mapfile -t files < <(find include runtime level1 checker replay engine tools -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' | sort)
bad=0
for f in "${files[@]}"; do
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "FAIL: $f is not laid out as .clang-format says (clang-format -i $f)"
    bad=1
  fi
done
[ "$bad" = 0 ] && echo "format: ok (${#files[@]} files)"
exit "$bad"
