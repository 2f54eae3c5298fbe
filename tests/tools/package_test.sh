#!/usr/bin/env bash
# package_test.sh BUILD SRC: the Debian package, as a user gets it. Builds it from the (built) tree
# BUILD with cpack, installs it with `apt-get install ./bsp-check_<version>_<arch>.deb` (apt pulls
# in its dependencies), then checks the installed tool from /usr: the install and outside-project
# tests in their --installed mode (bspcc/bspcxx programs, find_package(BSPCheck) with no prefix
# path, the level-1 library and bspcheck_add_test gates), a shipped example built with the
# installed bspcc and run by the installed bsp-check, each manual page through `man -l` with
# groff's warnings on, `man -w` by name, the bash and zsh completion from their installed places, and the
# action's steps installing the package (tests/tools/action_test.py --deb). Then it removes the
# package and every package apt pulled in for it, and checks the machine's package list is what
# it was.
#
# It installs into /usr as root: .ci/run runs it (CI=true), scripts/test.sh never does.
set -euo pipefail
build="$(cd "$1" && pwd)"; src="$(cd "$2" && pwd)"
[ "${CI:-}" = true ] || { echo "package_test.sh installs into /usr: it runs in CI only (CI=true, .ci/run)"; exit 2; }
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
if dpkg-query -W -f='${Status}' bsp-check 2>/dev/null | grep -q "ok installed"; then
  echo "FAIL: a bsp-check package is installed already; this test would replace and remove it"; exit 1
fi
start=$SECONDS
packages() { dpkg-query -W -f='${Package} ${Status}\n' | awk '$NF == "installed" {print $1}' | sort; }
before="$(packages)"
work="$(mktemp -d)"
cleanup() {
  if dpkg-query -W -f='${Status}' bsp-check 2>/dev/null | grep -q "ok installed"; then
    DEBIAN_FRONTEND=noninteractive $sudo apt-get purge -y -qq bsp-check >/dev/null
  fi
  # What apt pulled in for the package, and only that (not `autoremove`, which would also take
  # whatever else the machine had left to remove).
  local pulled
  pulled="$(comm -13 <(echo "$before") <(packages))"
  if [ -n "$pulled" ]; then
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get purge -y -qq $pulled >/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT

version="$(cat "$build/generated/version.txt")"
arch="$(dpkg --print-architecture)"
rm -f "$build"/bsp-check_*.deb
(cd "$build" && cpack -G DEB >"$work/cpack.log") || { cat "$work/cpack.log"; echo "FAIL: cpack -G DEB"; exit 1; }
deb="$build/bsp-check_${version}_${arch}.deb"
[ -f "$deb" ] || { echo "FAIL: no $deb; cpack made: $(ls "$build"/*.deb 2>/dev/null)"; exit 1; }
depends="$(dpkg-deb -f "$deb" Depends)"
for d in libboost-context gcc g++ libc6; do
  grep -q "\b$d" <<<"$depends" || { echo "FAIL: the package does not depend on $d: $depends"; exit 1; }
done

# Fresh package lists, for a dependency scripts/setup.sh has not installed; offline, apt installs
# with the lists at hand (and fails below if a dependency is missing).
$sudo apt-get update -qq || echo "package test: apt-get update failed; using the package lists at hand"
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$deb" >/dev/null
[ "$(command -v bsp-check)" = /usr/bin/bsp-check ] || { echo "FAIL: bsp-check is not /usr/bin/bsp-check"; exit 1; }
[ "$(bsp-check --version | head -1)" = "bsp-check $version" ] || { echo "FAIL: bsp-check --version: $(bsp-check --version), not bsp-check $version"; exit 1; }

bash "$src/tests/tools/install_test.sh" --installed /usr "$src"
bash "$src/tests/level1/outside_project_test.sh" --installed /usr

# A shipped example, built and run by the installed tools as a user would.
bspcc -O2 "$src/examples/reverse.c" -o "$work/reverse"
bsp-check run -q -p 1-4 --seeds 5 "$work/reverse" || { echo "FAIL: bsp-check on the example reverse.c"; exit 1; }

# Each page renders without a groff warning (man --warnings), and man finds it by name.
for page in man1/bsp-check.1 man1/bspcc.1 man1/bspcxx.1 man7/bspcheck-options.7; do
  file="/usr/share/man/$page"
  warnings="$(MANWIDTH=80 man --warnings -l "$file" 2>&1 >"$work/page.txt")" || { echo "FAIL: man -l $file"; exit 1; }
  [ -z "$warnings" ] || { echo "FAIL: man -l $file warns: $warnings"; exit 1; }
  name="$(basename "$file")"
  grep -q "^NAME" "$work/page.txt" && grep -qi "${name%.*}" "$work/page.txt" || { echo "FAIL: $file renders no NAME"; exit 1; }
  [ "$(man -w "${name%.*}")" = "$file" ] || { echo "FAIL: man -w ${name%.*}: $(man -w "${name%.*}")"; exit 1; }
done
bash "$src/tests/tools/completion_test.sh" /usr/bin/bsp-check /usr/share/bash-completion/completions
zsh "$src/tests/tools/zsh_completion_test.zsh" /usr/bin/bsp-check /usr/share/zsh/vendor-completions

python3 "$src/tests/tools/action_test.py" "$src" --deb "$deb"

DEBIAN_FRONTEND=noninteractive $sudo apt-get purge -y -qq bsp-check >/dev/null
trap - EXIT
cleanup
[ ! -e /usr/bin/bsp-check ] || { echo "FAIL: /usr/bin/bsp-check left after the removal"; exit 1; }
[ "$(packages)" = "$before" ] || { echo "FAIL: the package list differs after the removal:"; diff <(echo "$before") <(packages); exit 1; }
echo "package test: ok ($(basename "$deb"), $((SECONDS - start)) s)"
