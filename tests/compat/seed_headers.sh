#!/usr/bin/env bash
# seed_headers.sh BSPCC BSPCXX BSP-CHECK WORKDIR [CFLAGS]: the cBSP and BSPk headers build without
# a warning in strict ISO C and C++ (-pedantic-errors), and the programs run clean.
set -euo pipefail
bspcc=$1 bspcxx=$2 bspcheck=$3 work=$4 extra=${5:-}
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$work"
# shellcheck disable=SC2086
"$bspcc" -std=c11 -pedantic-errors -Wall -Wextra -Werror $extra "$here/seed_headers/headers.c" -o "$work/headers_c"
# shellcheck disable=SC2086
"$bspcxx" -std=c++17 -pedantic-errors -Wall -Wextra -Werror $extra "$here/seed_headers/headers.cpp" -o "$work/headers_cpp"
"$bspcheck" run -q -p 1 --seeds 2 "$work/headers_c"
"$bspcheck" run -q -p 1 --seeds 2 "$work/headers_cpp"
echo "ok: cbsp.h and bspk.h build with -pedantic-errors in C11 and C++17"
