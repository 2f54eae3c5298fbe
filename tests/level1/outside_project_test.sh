#!/usr/bin/env bash
# Installs the bsp-check build tree into a temporary prefix, then builds an outside CMake project
# against it: find_package(BSPCheck), a C program linking BSPCheck::bsp and BSPCheck::level1
# (a two-phase broadcast, an allreduce with a C operator, an alltoallv), gated with
# bspcheck_add_test, and runs its ctest: the installed bsp-check must find it clean, and a
# buggy twin registered the same way must fail its gate.
#   outside_project_test.sh BUILD                 installs BUILD into a temporary prefix
#   outside_project_test.sh --installed PREFIX    uses what is installed in PREFIX (the Debian
#                                                 package in /usr: tests/tools/package_test.sh),
#                                                 with no prefix path given to find_package
set -euo pipefail
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ "$1" = --installed ]; then
  prefix="$2"; prefix_path=()
else
  prefix="$work/prefix"
  cmake --install "$1" --prefix "$prefix" >/dev/null
  prefix_path=(-DCMAKE_PREFIX_PATH="$prefix")
fi
for f in include/bspcheck/level1.h include/bspcheck/level1.hpp include/bspcheck/testing.hpp \
         lib/cmake/BSPCheck/BSPCheckTesting.cmake; do
  [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
ls "$prefix"/lib*/libbspcheck_level1.so* >/dev/null 2>&1 || { echo "FAIL: libbspcheck_level1 not installed"; exit 1; }

mkdir -p "$work/outside"
cat > "$work/outside/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(outside C)
find_package(BSPCheck REQUIRED)
enable_testing()
add_executable(coll coll.c)
target_link_libraries(coll PRIVATE BSPCheck::bsp BSPCheck::level1)
add_executable(coll_bug coll.c)
target_compile_definitions(coll_bug PRIVATE LEAK_REGISTRATION)
target_link_libraries(coll_bug PRIVATE BSPCheck::bsp BSPCheck::level1)
bspcheck_add_test(NAME coll COMMAND coll 3 PROCS 1 2 3 5 SEEDS 10 SARIF LABELS outside)
bspcheck_add_test(NAME coll_bug COMMAND coll_bug 3 PROCS 2 SEEDS 3 WERROR LABELS outside_bug)
CM
cat > "$work/outside/coll.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "bsp.h"
#include "bspcheck/level1.h"

static void add_int(void *acc, const void *x, size_t count, void *ctx) {
  int *a = acc;
  const int *b = x;
  (void)ctx;
  for (size_t k = 0; k < count; ++k) a[k] += b[k];
}

int main(int argc, char **argv) {
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), me = bsp_pid(), n = argc > 1 ? atoi(argv[1]) : 3;
  int buf[16] = {0}, sum = 0, one = me + 1;
  if (me == 0)
    for (int i = 0; i < n; ++i) buf[i] = 10 + i;
  bsp_bcast_2phase(0, buf, (size_t)n, sizeof(int));
  bsp_allreduce(&one, &sum, 1, sizeof(int), add_int, NULL);
  size_t counts[64], displs[64];
  int src[64], dst[64];
  for (int j = 0; j < p; ++j) counts[j] = 1, displs[j] = (size_t)j, src[j] = me * 100 + j;
  bsp_alltoallv(src, counts, displs, dst, counts, displs, sizeof(int));
#ifdef LEAK_REGISTRATION
  bsp_push_reg(buf, sizeof buf); /* never popped: reg-leak at bsp_end (a warning; WERROR fails it) */
  bsp_sync();
#endif
  int bad = sum != p * (p + 1) / 2;
  for (int i = 0; i < n; ++i) bad |= buf[i] != 10 + i;
  for (int j = 0; j < p; ++j) bad |= dst[j] != j * 100 + me;
  if (bad) bsp_abort("process %d: wrong result", me);
  bsp_end();
  return 0;
}
C
cmake -S "$work/outside" -B "$work/outside/build" "${prefix_path[@]}" >/dev/null
cmake --build "$work/outside/build" >/dev/null
(cd "$work/outside/build" && ctest -L '^outside$' --output-on-failure) \
  || { echo "FAIL: the outside project's bspcheck_add_test gates failed"; exit 1; }
n=$(cd "$work/outside/build" && ctest -N -L '^outside$' | grep -c 'Test *#')
[ "$n" = 4 ] || { echo "FAIL: expected 4 gate tests (one per p), got $n"; exit 1; }
for p in 1 2 3 5; do
  [ -s "$work/outside/build/bspcheck-reports/coll.p$p.xml" ] || { echo "FAIL: no JUnit file for p=$p"; exit 1; }
  [ -s "$work/outside/build/bspcheck-reports/coll.p$p.sarif" ] || { echo "FAIL: no SARIF file for p=$p"; exit 1; }
done
if (cd "$work/outside/build" && ctest -L outside_bug >/dev/null 2>&1); then
  echo "FAIL: the gate of the leaking twin passed"; exit 1
fi
echo "outside project test: ok"
