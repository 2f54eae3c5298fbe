#!/usr/bin/env bash
# The main job: set up, build, and let bsp-check find a real, schedule-dependent bug in a shipped
# example (examples/buggy/), printing the failing seed and the command that reproduces it.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh" || exit 2
bash "$root/scripts/build.sh" "$root/build" -DBSPCHECK_BUILD_TESTS=OFF -DBSPCHECK_BUILD_BENCH=OFF >/dev/null || exit 2
cd "$root/build"
echo "\$ bsp-check run -p 4 --seeds 50 examples/buggy/ring_hp_race"
./tools/bsp-check run -p 4 --seeds 50 examples/buggy/ring_hp_race
status=$?
echo "(bsp-check exited with status $status: 1 means it found the bug)"
exit 0
