#!/usr/bin/env bash
# scripts/test_openmpi.sh [BUILD_DIR] [extra cmake options...]: the MPI back end's tests (label mpi,
# tests/mpi) against Open MPI, in a build tree of their own: the main builds use MPICH, whose
# mpicc and mpirun the alternatives name (scripts/setup.sh installs both MPIs and keeps them so).
# Builds only what those tests run (the mpi_tests target), then runs them.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$root/build-openmpi}"
shift || true
for tool in mpicc.openmpi mpicxx.openmpi mpirun.openmpi; do
  command -v "$tool" >/dev/null ||
    { echo "test_openmpi.sh: $tool not found (install openmpi-bin and libopenmpi-dev: scripts/setup.sh)" >&2; exit 2; }
done
# Ninja where it is installed and the folder has no generator yet, as scripts/build.sh.
generator=()
if [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S "$root" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBSPCHECK_BUILD_BENCH=OFF \
  -DMPI_C_COMPILER="$(command -v mpicc.openmpi)" -DMPI_CXX_COMPILER="$(command -v mpicxx.openmpi)" \
  -DMPIEXEC_EXECUTABLE="$(command -v mpirun.openmpi)" "$@" >/dev/null
# The tree must have found Open MPI, not whatever mpicc names: else these tests would repeat MPICH's.
grep -q '^MPI_C_HEADER_DIR:PATH=.*openmpi' "$dir/CMakeCache.txt" ||
  { echo "test_openmpi.sh: $dir did not configure against Open MPI (MPI_C_HEADER_DIR)" >&2; exit 1; }
cmake --build "$dir" --target mpi_tests -j"$(nproc)"
bash "$root/scripts/ctest_retry.sh" "$dir" -L mpi -j"$(nproc)" --timeout 300 --output-on-failure
