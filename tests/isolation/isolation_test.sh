#!/usr/bin/env bash
# Each run sees the working directory and the temporary directory as the session found them, and
# no other run's files (issue 42): a file as a critical section, a log each process appends to, a
# file created only if absent, each over 200 seeds at -j 1, -j 2 and without the fork server; the
# user's files untouched by a run that overwrites, renames and removes them and then crashes; and
# the fallback, forced with BSPCHECK_FILE_VIEW=refuse and refused by the kernel, which runs one at a
# time and says so; and --stable-pid (issue 42, item 4).
# Usage: isolation_test.sh BSP-CHECK BSPCC [CFLAGS]
set -uo pipefail
BSPCHECK="$1"; BSPCC="$2"; CFLAGS="${3:-}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The runs' working directory, and their temporary directory inside the test's own folder, so
# that whatever a run left behind there is seen.
mkdir -p "$work/cwd" "$work/tmp"
export TMPDIR="$work/tmp"
cd "$work/cwd" || exit 1
fail=0
for prog in file_lock append_log create_if_absent clobber pid_named_files; do
  # shellcheck disable=SC2086
  "$BSPCC" $CFLAGS "$here/programs/$prog.c" -o "$work/$prog" || { echo "FAIL: cannot compile $prog.c"; exit 1; }
done

# nothing_left WHAT: the session left no file in the working directory or in $TMPDIR but the
# user's own (and the programs', which live outside).
nothing_left() {
  local left
  left="$(ls -A "$work/cwd" "$work/tmp" | grep -v -e '^$' -e ':$' -e '^user_file.txt$' || true)"
  if [ -n "$left" ]; then echo "FAIL: $1: left behind: $left"; fail=1; rm -rf "${work:?}/cwd/"* "${work:?}/tmp/"*; fi
}

# clean WHAT ARGS...: a session over 200 seeds that must pass.
clean() {
  local what="$1" out status; shift
  out="$("$BSPCHECK" run -p 3 --seeds 200 "$@" 2>&1 </dev/null)"; status=$?
  if [ "$status" != 0 ] || ! grep -q "200 runs clean" <<<"$out"; then
    echo "FAIL: $what: status $status"; echo "$out" | tail -5; fail=1
  fi
  nothing_left "$what"
}

# The log's lines come in the order the processes run, which the schedule draws: its contents are
# schedule-divergence now that files are compared across seeds (kept_files_test.sh), so its
# sessions leave that comparison off; what they check is that each run sees its own log only.
for prog in file_lock append_log create_if_absent; do
  order=()
  [ "$prog" = append_log ] && order=(--schedule-dependent-output)
  clean "$prog -j 1" -j 1 "${order[@]}" "$work/$prog"
  clean "$prog -j 2" -j 2 "${order[@]}" "$work/$prog"
  clean "$prog without the fork server" -j 2 --no-fork-server "${order[@]}" "$work/$prog"
done
# A forked child per run, as sanitizer builds make them.
BSPCHECK_RUNS_PER_WORKER=1 clean "file_lock, a forked child per run" -j 2 "$work/file_lock"
# A single run is the run the user asked for: its file is copied back (kept_files_test.sh).
out="$("$BSPCHECK" run -p 4 --seed 9 "$work/create_if_absent" 2>&1)" ||
  { echo "FAIL: a single run of create_if_absent: $out"; fail=1; }
[ -e bsp-check-isolation.once ] || { echo "FAIL: a single run did not leave its file"; fail=1; }
rm -f bsp-check-isolation.once
nothing_left "a single run"

# The user's file is never changed, even by a run that overwrites, renames and removes it and
# then crashes; the crash is the run's finding, and each run saw the file as the session began.
echo "the user's words" >user_file.txt
out="$("$BSPCHECK" run -p 2 --seeds 5 --keep-going -j 2 "$work/clobber" 2>&1)"; status=$?
[ "$status" = 1 ] && grep -q "crash" <<<"$out" || { echo "FAIL: clobber: status $status"; echo "$out" | tail -3; fail=1; }
[ "$(cat user_file.txt)" = "the user's words" ] || { echo "FAIL: the user's file was changed: $(cat user_file.txt)"; fail=1; }
# The crashed run's files are kept beside its trace, the user's file as the run left it.
[ -e clobber-files/p2-s1/removed.txt ] || { echo "FAIL: clobber: the failing run's files are not kept"; fail=1; }
rm -rf ./*.trace clobber-files
nothing_left "clobber"

# The fallback, forced: runs share the real directories, one at a time (-j 2 notwithstanding),
# and the summary says so. One at a time, the file as a critical section passes; a file created
# if absent is seen by the next run, as the summary warns.
out="$(BSPCHECK_FILE_VIEW=refuse "$BSPCHECK" run -p 3 --seeds 200 -j 2 "$work/file_lock" 2>&1)"; status=$?
[ "$status" = 0 ] || { echo "FAIL: forced fallback, file_lock: status $status"; echo "$out" | tail -3; fail=1; }
grep -q "not checked: each run's own view of the files it writes (refused on request" <<<"$out" ||
  { echo "FAIL: the forced fallback is not named in the summary"; echo "$out" | tail -3; fail=1; }
out="$(BSPCHECK_FILE_VIEW=refuse "$BSPCHECK" run -p 3 --seeds 5 -j 2 "$work/create_if_absent" 2>&1)"; status=$?
[ "$status" = 1 ] && grep -q "another run's" <<<"$out" ||
  { echo "FAIL: forced fallback: create_if_absent did not meet the earlier run's file"; echo "$out" | tail -3; fail=1; }
[ -e bsp-check-isolation.once ] || { echo "FAIL: forced fallback: the run did not write the real directory"; fail=1; }
rm -f ./*.trace bsp-check-isolation.once

# The fallback, for real: a user namespace of the test's own whose limits allow no further mount
# or user namespace, as a container or a sysctl refuses them. The session asks the program's
# runtime before runs go side by side, learns of the refusal and runs them one at a time, saying
# so: the file as a critical section passes at -j 2 over 100 seeds. Where the kernel grants a
# view, nothing is said.
refused_here() {
  unshare --user --map-root-user sh -c 'echo 0 >/proc/sys/user/max_mnt_namespaces &&
    echo 0 >/proc/sys/user/max_user_namespaces && exec "$@"' refused "$@"
}
if ! unshare --user --map-root-user true 2>/dev/null; then
  echo "FAIL: cannot make a user namespace to refuse the view in (unshare --user): the real fallback is untested"
  fail=1
else
  out="$(refused_here "$BSPCHECK" run -p 3 --seeds 100 -j 2 "$work/file_lock" 2>&1 </dev/null)"; status=$?
  [ "$status" = 0 ] && grep -q "100 runs clean" <<<"$out" ||
    { echo "FAIL: refused by the kernel, file_lock -j 2: status $status"; echo "$out" | tail -4; fail=1; }
  grep -q "runs go one at a time, not 2 side by side: the kernel refused each run a view of its own files" <<<"$out" ||
    { echo "FAIL: refused by the kernel: the session did not say it runs one at a time"; echo "$out" | tail -4; fail=1; }
  rm -f ./*.trace bsp-check-isolation.lock
fi
out="$("$BSPCHECK" run -p 3 --seeds 20 -j 2 "$work/file_lock" 2>&1 </dev/null)"
grep -q "one at a time" <<<"$out" && { echo "FAIL: a granted view was said to be refused: $out"; fail=1; }
nothing_left "the real fallback"

# --stable-pid: each process has an id of its own, the same in every run (the files it names after
# getpid() never collide, and what it draws from srand(getpid()) is the same under every seed);
# without it the processes share the OS process's id, and their files collide.
out="$("$BSPCHECK" run -v -p 4 --seeds 50 -j 2 --stable-pid "$work/pid_named_files" 2>&1)"; status=$?
[ "$status" = 0 ] || { echo "FAIL: --stable-pid: status $status"; echo "$out" | tail -3; fail=1; }
[ "$(grep '^process 2 drew' <<<"$out" | sort -u | wc -l)" = 1 ] && [ "$(grep -c '^process 2 drew' <<<"$out")" = 50 ] ||
  { echo "FAIL: --stable-pid: process 2 did not draw the same number in all 50 runs"; fail=1; }
[ "$(grep '^process [0-3] drew' <<<"$out" | sort -u | wc -l)" = 4 ] ||
  { echo "FAIL: --stable-pid: the processes do not have ids of their own"; fail=1; }
out="$("$BSPCHECK" run -p 4 --seeds 5 "$work/pid_named_files" 2>&1)"; status=$?
[ "$status" = 1 ] && grep -q "another process has the same id" <<<"$out" ||
  { echo "FAIL: without --stable-pid the processes' ids should be the one OS process's"; echo "$out" | tail -3; fail=1; }
rm -rf ./*.trace ./*-files
nothing_left "--stable-pid"

[ "$fail" = 0 ] && echo "isolation: ok"
exit "$fail"
