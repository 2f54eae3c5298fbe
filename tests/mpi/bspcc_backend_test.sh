#!/bin/sh
# bspcc --backend=mpi (docs/mpi.md): a program built with it runs under mpiexec with one rank per
# process; -lbspcheck_level1 names the MPI twin; an unknown backend, a backend with no name and
# a dialect the MPI back end does not serve are each one line on stderr and exit 2.
#   bspcc_backend_test.sh BSPCC HELLO_C MPIEXEC MPI_INCLUDE_DIR
set -u
bspcc="$1" hello="$2" mpiexec="$3" mpi_include="$4"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$bspcc" --backend=mpi "$hello" -o "$dir/hello" || fail "bspcc --backend=mpi did not build $hello"
nm -D -u "$dir/hello" | grep -q ' MPI_' && fail "the program itself calls MPI (it should reach it through libbspcheck_mpi)"
ldd "$dir/hello" | grep -q 'libbspcheck_mpi\.so' || fail "hello is not linked with libbspcheck_mpi"
ldd "$dir/hello" | grep -q 'libbspcheck\.so' && fail "hello is linked with the engine's libbspcheck too"
# bspcc takes the flags of the MPI the back end was built with (MPICH's or Open MPI's, whatever
# mpicc names today), so that a program that calls MPI itself gets that MPI's mpi.h and library.
"$bspcc" --backend=mpi --showme "$hello" | grep -q -- "-I$mpi_include\( \|$\)" ||
  fail "bspcc --backend=mpi does not compile with the back end's MPI ($mpi_include): $("$bspcc" --backend=mpi --showme "$hello")"
out="$(MPIEXEC_TIMEOUT=60 "$mpiexec" -n 3 "$dir/hello")" || fail "mpiexec -n 3 hello failed"
n="$(printf '%s\n' "$out" | grep -c 'of 3')"
[ "$n" = 3 ] || fail "expected 3 lines naming 3 processes, got: $out"
"$bspcc" --backend=mpi --showme "$hello" -lbspcheck_level1 | grep -q -- '-lbspcheck_mpi_level1' ||
  fail "-lbspcheck_level1 is not renamed to its MPI twin"

one_line_exit_2() {
  err="$("$bspcc" "$@" "$hello" -o "$dir/x" 2>&1 >/dev/null)"
  status=$?
  [ "$status" = 2 ] || fail "bspcc $*: exit $status, not 2"
  [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "bspcc $*: not one line: $err"
  printf '%s\n' "$err" | grep -q '^bspcc: ' || fail "bspcc $*: the line does not start with 'bspcc: ': $err"
}
one_line_exit_2 --backend=nosuch
one_line_exit_2 --backend
one_line_exit_2 --backend=mpi --dialect=mcbsp
echo "bspcc --backend=mpi: ok"
