#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite twice: a plain build (warnings as errors) and
# an ASan+UBSan build of the runtime, examples and tests.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
jobs="$(nproc)"

# The trace reader's fuzzer (tests/fuzz) needs clang's fuzzer runtime, which setup installs: a
# missing runtime is a failure here, not a skip.
export FUZZ_REQUIRED=1

echo "== plain build"
bash "$root/scripts/build.sh" "$root/build" -DBSPCHECK_WERROR=ON
(cd "$root/build" && ctest -j"$jobs" --output-on-failure)

echo "== ASan+UBSan build"
bash "$root/scripts/build.sh" "$root/build-asan" -DBSPCHECK_WERROR=ON -DBSPCHECK_SANITIZE=address,undefined \
  -DBSPCHECK_BUILD_BENCH=OFF
(cd "$root/build-asan" && ASAN_OPTIONS=detect_leaks=1 ctest -j"$jobs" --output-on-failure)
