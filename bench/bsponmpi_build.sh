# bsponmpi_build.sh: sourced by the bench scripts that run a kernel under BSPonMPI beside bsp-check
# (bench_native.sh, mpi/bench_mpi_native.sh): the one check of a BSPonMPI source folder and the one
# build of it, shared by both under BUILD_DIR/bench-native.
#
#   bsponmpi_build NAME BUILD_DIR SOURCE_DIR
#
# NAME prefixes its messages. Without a usable source it says why and exits 0 (a bench skipped,
# not failed); a failed build exits 1. Sets `native`, whose install/bin holds bspcc and bsprun.
bsponmpi_build() {
  local name=$1 build=$2 source_dir=$3
  skip_bsponmpi() { echo "$name: skipped: $*"; exit 0; }
  [ -n "$source_dir" ] || skip_bsponmpi "no BSPonMPI source given ($0 BUILD_DIR BSPONMPI_SOURCE, or BSPONMPI_SRC)"
  [ -f "$source_dir/CMakeLists.txt" ] && [ -f "$source_dir/include/bsp.h" ] ||
    skip_bsponmpi "$source_dir is not a BSPonMPI source tree (no CMakeLists.txt and include/bsp.h)"
  # Built once per source folder (its post-install self-test may fail on a machine without a
  # working CMake package registry; the library and its bspcc/bsprun are what is used).
  native=$build/bench-native
  mkdir -p "$native"
  if [ ! -x "$native/install/bin/bsprun" ] || [ "$(cat "$native/source" 2>/dev/null)" != "$source_dir" ]; then
    echo "$name: building BSPonMPI from $source_dir (log: $native/build.log)" >&2
    rm -rf "$native/build" "$native/install"
    { cmake -S "$source_dir" -B "$native/build" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_INSTALL_PREFIX="$native/install" &&
      cmake --build "$native/build" -j "$(nproc)" &&
      { cmake --install "$native/build" || true; }; } > "$native/build.log" 2>&1 ||
      { echo "$name: building BSPonMPI failed; see $native/build.log" >&2; exit 1; }
    [ -x "$native/install/bin/bsprun" ] ||
      { echo "$name: BSPonMPI's install has no bin/bsprun; see $native/build.log" >&2; exit 1; }
    echo "$source_dir" > "$native/source"
  fi
}
