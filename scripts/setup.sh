#!/usr/bin/env bash
# Installs what bsp-check needs to build and test, from Debian's packages; quick when present.
set -euo pipefail
# gdb: bsp-check debug and its tests (tests/debug, docs/debugging.md).
packages=(build-essential cmake ninja-build python3 gdb libboost-context-dev librapidcheck-dev libgtest-dev
          libcli11-dev nlohmann-json3-dev clang-14 libclang-rt-14-dev
          python3-sarif-python-om  # the SARIF 2.1.0 object model the report tests check against
          universal-ctags          # functions' first and last lines, for scripts/check_sizes.py
          clang-format             # the code's layout (.clang-format), for scripts/check_format.sh
          yamllint                 # the linter of action.yml (tests/tools/action_test.py)
          file man-db              # cpack's DEB generator (dpkg-shlibdeps of ELF files); man -l of the pages
          zsh                      # the zsh completion's test runs it (tests/tools/zsh_completion_test.zsh)
          procps                   # pgrep: tests/mpi checks that a job leaves no process behind
          mpich libmpich-dev       # the MPI back end (mpi/, docs/mpi.md) and its tests under mpiexec, with MPICH
          openmpi-bin libopenmpi-dev)  # and with Open MPI, in a second build tree (scripts/test_openmpi.sh)
# Open MPI's packages take the mpicc, mpirun and mpi.h alternatives from MPICH (a higher priority).
# The builds use MPICH by those names and Open MPI by its own (mpicc.openmpi, mpirun.openmpi), so
# each alternative goes back to what it named before (to MPICH where it named nothing).
alternatives=(mpi mpirun "mpi-$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)")
# An alternative nobody installed yet (a fresh machine) has no value: empty, not a failure.
alternative_value() { { update-alternatives --query "$1" 2>/dev/null || true; } | awk '/^Value:/ { print $2 }'; }
before=()
for a in "${alternatives[@]}"; do before+=("$(alternative_value "$a")"); done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
for i in "${!alternatives[@]}"; do
  a="${alternatives[$i]}" want="${before[$i]}"
  if [ -z "$want" ]; then
    # Nothing was chosen before: MPICH's member of the group (mpicc.mpich, mpirun.mpich, .../mpich).
    want="$(update-alternatives --list "$a" 2>/dev/null | grep -m1 mpich || true)"
  fi
  if [ -n "$want" ] && [ "$(alternative_value "$a")" != "$want" ]; then
    $sudo update-alternatives --set "$a" "$want" >/dev/null
  fi
done
