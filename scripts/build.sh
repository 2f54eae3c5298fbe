#!/usr/bin/env bash
# scripts/build.sh [BUILD_DIR] [extra cmake options...]: configure and build bsp-check.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$root/build}"
shift || true
# Ninja where it is installed (scripts/setup.sh installs it) and the folder has no generator yet:
# it keeps both cores busy across targets.
generator=()
if [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S "$root" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)"
