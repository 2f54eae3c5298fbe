#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, then checks that what is installed works from
# outside: bspcc and bspcxx build programs that run, find_package(BSPCheck) + BSPCheck::bsp
# builds an outside CMake project, and the installed bsp-check runs it; the same for a
# MulticoreBSP for C program (bspcc --dialect=mcbsp, BSPCheck::mcbsp). The prefix has a space in
# its name; bspcc builds a C++ source (through bspcxx).
#   install_test.sh BUILD SRC                 installs BUILD into a temporary prefix
#   install_test.sh --installed PREFIX SRC    checks what is already installed in PREFIX (the
#                                             Debian package in /usr: tests/tools/package_test.sh);
#                                             find_package(BSPCheck) is then given no prefix path
set -euo pipefail
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ "$1" = --installed ]; then
  prefix="$2"; src="$3"; prefix_path=()
else
  build="$1"; src="$2"
  prefix="$work/install prefix"  # a space in the prefix: every path is one word in the wrappers
  cmake --install "$build" --prefix "$prefix" >/dev/null
  prefix_path=(-DCMAKE_PREFIX_PATH="$prefix")
fi
for f in bin/bsp-check bin/bspcc bin/bspcxx include/bsp.h include/mcbsp.h include/mcbsp-affinity.h \
         include/bspcheck/dialects/mcbsp/bsp.h include/bspcheck/bspcheck.hpp lib/cmake/BSPCheck/BSPCheckConfig.cmake \
         share/man/man1/bsp-check.1 share/man/man1/bspcc.1 share/man/man1/bspcxx.1 share/man/man7/bspcheck-options.7 \
         share/bash-completion/completions/bsp-check share/bash-completion/completions/bspcc \
         share/bash-completion/completions/bspcxx share/zsh/vendor-completions/_bsp-check \
         share/zsh/vendor-completions/_bspcc share/doc/bsp-check/README.md share/doc/bsp-check/docs/cli.md; do
  [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done

cat > "$work/ring.c" <<'C'
#include <stdio.h>
#include "bsp.h"
int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), me = bsp_pid(), got = -1;
  bsp_push_reg(&got, sizeof got);
  bsp_sync();
  bsp_put((me + 1) % p, &me, &got, 0, sizeof me);
  bsp_sync();
  printf("%d got %d\n", me, got);
  bsp_pop_reg(&got);
  bsp_end();
  return got == (me + p - 1) % p ? 0 : 3;
}
C
cp "$work/ring.c" "$work/ring.cpp"

# MulticoreBSP for C 2.x: unsigned pids, size_t sizes, SIZE_MAX from its bsp.h.
cat > "$work/mcring.c" <<'C'
#include <stdio.h>
#include <bsp.h>
int main(void) {
  bsp_begin(bsp_nprocs());
  bsp_pid_t p = bsp_nprocs(), me = bsp_pid(), got = 0;
  bsp_push_reg(&got, sizeof got);
  bsp_sync();
  bsp_put((me + 1) % p, &me, &got, 0, sizeof me);
  bsp_sync();
  bsp_size_t status = 0;
  bsp_get_tag(&status, NULL);
  printf("%u got %u\n", me, got);
  bsp_pop_reg(&got);
  bsp_end();
  return got == (me + p - 1) % p && status == SIZE_MAX ? 0 : 3;
}
C

"$prefix/bin/bspcc" "$work/ring.c" -o "$work/ring_c"
"$prefix/bin/bspcxx" "$work/ring.cpp" -o "$work/ring_cxx"
out="$(BSPCHECK_OPTIONS=procs=3:seed=5 "$work/ring_c" | sort)"
[ "$out" = "$(printf '0 got 2\n1 got 0\n2 got 1')" ] || { echo "FAIL: bspcc program printed: $out"; exit 1; }
BSPCHECK_OPTIONS=procs=5 "$work/ring_cxx" >/dev/null || { echo "FAIL: bspcxx program failed"; exit 1; }
# bspcc given a C++ source builds it as bspcxx would; C and C++ in one command are refused in one line.
"$prefix/bin/bspcc" "$work/ring.cpp" -o "$work/ring_cc_cxx" || { echo "FAIL: bspcc x.cpp"; exit 1; }
BSPCHECK_OPTIONS=procs=3 "$work/ring_cc_cxx" >/dev/null || { echo "FAIL: bspcc x.cpp program failed"; exit 1; }
if err="$("$prefix/bin/bspcc" "$work/ring.c" "$work/ring.cpp" -o "$work/mixed" 2>&1)"; then
  echo "FAIL: bspcc of C and C++ together succeeded"; exit 1
fi
[ "$(wc -l <<<"$err")" = 1 ] && grep -q "bspcxx" <<<"$err" || { echo "FAIL: mixed sources: $err"; exit 1; }
"$prefix/bin/bspcc" --dialect=mcbsp "$work/mcring.c" -o "$work/mcring_c"
BSPCHECK_OPTIONS=procs=4 "$work/mcring_c" >/dev/null || { echo "FAIL: bspcc --dialect=mcbsp program failed"; exit 1; }

mkdir -p "$work/outside"
cat > "$work/outside/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(outside C)
find_package(BSPCheck REQUIRED)
add_executable(ring ring.c)
target_link_libraries(ring PRIVATE BSPCheck::bsp)
add_executable(mcring mcring.c)
target_link_libraries(mcring PRIVATE BSPCheck::mcbsp)
CM
cp "$work/ring.c" "$work/mcring.c" "$work/outside/"
cmake -S "$work/outside" -B "$work/outside/build" "${prefix_path[@]}" >/dev/null
cmake --build "$work/outside/build" >/dev/null
"$prefix/bin/bsp-check" run -q -p 1-4 --seeds 5 "$work/outside/build/ring" >/dev/null \
  || { echo "FAIL: installed bsp-check on the find_package program"; exit 1; }
"$prefix/bin/bsp-check" run -q -p 1-4 --seeds 5 "$work/outside/build/mcring" >/dev/null \
  || { echo "FAIL: installed bsp-check on the BSPCheck::mcbsp program"; exit 1; }
echo "install test: ok"
