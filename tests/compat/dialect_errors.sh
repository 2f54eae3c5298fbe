#!/bin/bash
# What must not build, must not build, with a one-line error that names the dialect; what the
# dialects promise besides the BSPedupack-style programs (types, C++, compatibility mode, the
# CMake-free flag handling) builds and runs.
#   dialect_errors.sh BSPCC BSPCXX BSP_CHECK WORKDIR [EXTRA_FLAGS]
set -u
bspcc="$1" bspcxx="$2" bspcheck="$3" work="$4" extra="${5:-}"
mkdir -p "$work"
cd "$work" || exit 2
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# must_not_build NAME TEXT COMPILER-AND-FLAGS...: the source NAME does not compile and the error
# output contains TEXT.
must_not_build() {
  local name="$1" text="$2"
  shift 2
  if "$@" $extra -c "$name" -o /dev/null 2>"$name.err"; then
    fail "$name built with: $*"
  elif ! grep -qF -- "$text" "$name.err"; then
    fail "$name: the error does not say '$text':"
    cat "$name.err"
  else
    echo "ok: $name does not build: $(grep -F -- "$text" "$name.err" | head -1 | sed 's/^.*error: //')"
  fi
}

# A MulticoreBSP 2 program's size_t status against the classic int interface: C would convert
# the pointer behind a warning and half of status would stay unwritten.
cat > size_t_status_classic.c <<'C'
#include <bsp.h>
#include <stddef.h>
void f(void) {
  size_t status;
  char tag[8];
  bsp_get_tag(&status, tag);
}
C
must_not_build size_t_status_classic.c "--dialect=mcbsp" "$bspcc"

cat > size_t_qsize_classic.c <<'C'
#include <bsp.h>
#include <stddef.h>
void f(void) {
  unsigned int n;
  size_t bytes;
  bsp_qsize(&n, &bytes);
}
C
must_not_build size_t_qsize_classic.c "--dialect=mcbsp" "$bspcc"

cat > size_t_tagsize_classic.c <<'C'
#include <bsp.h>
#include <stddef.h>
void f(void) {
  size_t t = 8;
  bsp_set_tagsize(&t);
}
C
must_not_build size_t_tagsize_classic.c "--dialect=mcbsp" "$bspcc"

# The mirror image: a classic program's int status under --dialect=mcbsp would be overwritten by
# eight bytes.
cat > int_status_mcbsp.c <<'C'
#include <bsp.h>
void f(void) {
  int status;
  char tag[8];
  bsp_get_tag(&status, tag);
}
C
must_not_build int_status_mcbsp.c "without --dialect" "$bspcc" --dialect=mcbsp

# Miller's Oxford BSP library addresses unregistered statics of other processes: refused by name.
cat > miller_store.c <<'C'
#include <bsp.h>
static int x;
void f(void) {
  int y = 1;
  bspstore(1, &y, &x, sizeof y);
}
C
must_not_build miller_store.c "bspstore (Oxford BSP library) is not supported" "$bspcc"

cat > both_headers.c <<'C'
#include <bsp.h>
#include <mcbsp.h>
C
must_not_build both_headers.c "--dialect=mcbsp" "$bspcc"

# C++ never converts between these pointer types: the classic header in C++ refuses size_t too.
cat > size_t_status_classic.cpp <<'C'
#include <bsp.h>
#include <cstddef>
void f() {
  std::size_t status;
  char tag[8];
  bsp_get_tag(&status, tag);
}
C
must_not_build size_t_status_classic.cpp "bsp_get_tag" "$bspcxx"

# An unknown dialect: the wrapper says which, and what it knows.
if "$bspcc" --dialect=lpf -c size_t_status_classic.c -o /dev/null 2>unknown.err; then
  fail "bspcc --dialect=lpf succeeded"
elif ! grep -qF "dialect 'lpf' is not supported" unknown.err; then
  fail "bspcc --dialect=lpf: $(cat unknown.err)"
else
  echo "ok: $(cat unknown.err)"
fi

# --showme tells where the dialect's bsp.h comes from.
if ! "$bspcc" --dialect=mcbsp --showme prog.c | grep -q "dialects/mcbsp"; then
  fail "bspcc --dialect=mcbsp --showme does not name the dialect's include folder"
fi

# The BSPlib 1.x type names in the classic header are int, as BSPonMPI declares them.
cat > type_names.c <<'C'
#include <bsp.h>
#include <stdio.h>
_Static_assert(sizeof(bsp_pid_t) == sizeof(int) && (bsp_pid_t)-1 < 0, "bsp_pid_t is int");
_Static_assert(sizeof(bsp_size_t) == sizeof(int) && (bsp_size_t)-1 < 0, "bsp_size_t is int");
_Static_assert(sizeof(bsp_nprocs_t) == sizeof(int), "bsp_nprocs_t is int");
int main(void) {
  bsp_begin(bsp_nprocs());
  bsp_pid_t s = bsp_pid();
  bsp_nprocs_t p = bsp_nprocs();
  bsp_size_t status = 0, nbytes = 0;
  bsp_nprocs_t nmessages = 0;
  bsp_send((s + 1) % p, NULL, &s, sizeof s);
  bsp_sync();
  bsp_qsize(&nmessages, &nbytes);
  bsp_get_tag(&status, NULL);
  bsp_pid_t from = -1;
  bsp_move(&from, sizeof from);
  if (nmessages != 1 || nbytes != (bsp_size_t)sizeof s || status != (bsp_size_t)sizeof s || from != (s + p - 1) % p)
    bsp_abort("type_names: wrong message");
  bsp_end();
  return 0;
}
C
"$bspcc" -O2 type_names.c -o type_names $extra && "$bspcheck" run -q -p 1-4 --seeds 3 ./type_names \
  && echo "ok: the BSPlib 1.x type names build and run" || fail "type_names.c"

# MulticoreBSP's types are unsigned and size_t; its bsp.h brings <stdint.h> (SIZE_MAX) and
# <stddef.h> along.
cat > mcbsp_types.c <<'C'
#include <bsp.h>
_Static_assert(sizeof(bsp_size_t) == sizeof(size_t) && (bsp_size_t)-1 > 0, "bsp_size_t is size_t");
_Static_assert((bsp_pid_t)-1 > 0 && (bsp_nprocs_t)-1 > 0, "pids and counts are unsigned");
int main(void) {
  bsp_begin(bsp_nprocs());
  void *tag, *payload;
  bsp_size_t status = 0;
  bsp_get_tag(&status, NULL);
  if (status != SIZE_MAX || bsp_hpmove(&tag, &payload) != SIZE_MAX) bsp_abort("an empty queue is SIZE_MAX");
  bsp_end();
  return 0;
}
C
"$bspcc" --dialect=mcbsp -O2 mcbsp_types.c -o mcbsp_types $extra && "$bspcheck" run -q -p 1-4 --seeds 3 ./mcbsp_types \
  && echo "ok: MulticoreBSP's types and SIZE_MAX build and run" || fail "mcbsp_types.c"

# A C++ program that includes mcbsp.h inside extern "C", as MulticoreBSP's C++ users do.
cat > mcbsp_cxx.cpp <<'C'
#include <cstdio>
extern "C" {
#include <mcbsp.h>
}
int main() {
  mcbsp_set_maximum_threads(3);
  bsp_begin(bsp_nprocs());
  const bsp_pid_t s = bsp_pid();
  const bsp_nprocs_t p = bsp_nprocs();
  if (p > 3) bsp_abort("mcbsp_set_maximum_threads(3) granted %u", p);
  bsp_size_t tagsize = sizeof(bsp_pid_t);
  bsp_set_tagsize(&tagsize);
  bsp_sync();
  double x = s;
  bsp_hpsend((s + 1) % p, &s, &x, sizeof x);
  bsp_sync();
  bsp_nprocs_t n = 0;
  bsp_qsize(&n, nullptr);
  bsp_size_t status = 0;
  bsp_pid_t from = 0;
  bsp_get_tag(&status, &from);
  double y = -1;
  bsp_move(&y, SIZE_MAX);
  if (n != 1 || status != sizeof y || from != (s + p - 1) % p || y != from) bsp_abort("mcbsp_cxx: wrong message");
  if (s == 0) std::printf("C++ with mcbsp.h: ok\n");
  bsp_end();
  return 0;
}
C
"$bspcxx" --dialect=mcbsp -O2 mcbsp_cxx.cpp -o mcbsp_cxx $extra && "$bspcheck" run -q -p 1-8 --seeds 3 ./mcbsp_cxx \
  && echo "ok: bspcxx --dialect=mcbsp, extern \"C\" { #include <mcbsp.h> }" || fail "mcbsp_cxx.cpp"

# MulticoreBSP's C++ wrapper (mcbsp.hpp): a BSP_program whose fields are each process's own
# (process 0 runs on the object begin() was called on, the others on newInstance()'s), as
# MulticoreBSP's C++ users write it, in C++98 and in the default standard. Each process reads
# its right neighbour's field with bsp_direct_get; process 0 checks them all and the destructor
# count (every instance but its own destroyed, once).
cat > mcbsp_program.cpp <<'C'
#include <mcbsp.hpp>
#include <cstdio>
static int destroyed[64];  /* shared, as between MulticoreBSP's threads: a slot per process */
class Ring : public mcbsp::BSP_program {
  long mine, right;
  int slot;  /* the process whose instance this is; -1 for main's own object */
 protected:
  virtual void spmd() {
    const bsp_pid_t s = bsp_pid(), p = bsp_nprocs();
    mine = 10 * (long)s + 1;
    bsp_push_reg(&mine, sizeof mine);
    bsp_push_reg(&right, sizeof right);
    bsp_sync();
    bsp_direct_get((s + 1) % p, &mine, 0, &right, sizeof right);
    bsp_sync();
    long wrong = right != 10 * (long)((s + 1) % p) + 1;
    long any = 0;
    bsp_push_reg(&any, sizeof any);
    bsp_sync();
    if (wrong) bsp_put(0, &wrong, &any, 0, sizeof wrong);
    bsp_sync();
    if (s == 0) std::printf("BSP_program with %u processes: %s\n", p, any ? "WRONG" : "ok");
    bsp_pop_reg(&any);
    bsp_pop_reg(&right);
    bsp_pop_reg(&mine);
  }
  virtual mcbsp::BSP_program* newInstance() {
    Ring* r = new Ring();
    r->slot = (int)bsp_pid();
    return r;
  }
 public:
  Ring() : mine(-1), right(-1), slot(-1) {}
  ~Ring() {
    if (slot >= 0) destroyed[slot] += 1;
  }
};
int main() {
  Ring program;
  program.begin();
  int n = 0;
  for (int s = 0; s < 64; ++s) n += destroyed[s];
  std::printf("destroyed %d instances\n", n);
  return 0;
}
C
for std in -std=c++98 ""; do
  # shellcheck disable=SC2086
  if "$bspcxx" --dialect=mcbsp -O2 $std mcbsp_program.cpp -o mcbsp_program $extra; then
    for p in 1 3 5; do
      out="$("$bspcheck" run -v -p "$p" --seeds 3 ./mcbsp_program 2>&1)"
      if [ "$(grep -c "^BSP_program with $p processes: ok$" <<<"$out")" != 3 ] ||
         [ "$(grep -c "^destroyed $((p - 1)) instances$" <<<"$out")" != 3 ] || grep -q "error\[" <<<"$out"; then
        fail "mcbsp_program.cpp ($std) at p = $p:"
        echo "$out" | head -20
      fi
    done
    echo "ok: mcbsp.hpp's BSP_program $std"
  else
    fail "mcbsp_program.cpp does not build ($std)"
  fi
done

# MCBSP_COMPATIBILITY_MODE asks MulticoreBSP for the classic int interface (bsp_direct_get too).
cat > mcbsp_compat_mode.c <<'C'
#define MCBSP_COMPATIBILITY_MODE
#include <mcbsp.h>
int main(void) {
  bsp_begin(bsp_nprocs());
  int status = 0, n = 0, bytes = 0;
  bsp_qsize(&n, &bytes);
  bsp_get_tag(&status, NULL);
  if (status != -1) bsp_abort("classic: an empty queue is -1");
  int mine = 7 * bsp_pid(), theirs = -1;
  bsp_push_reg(&mine, sizeof mine);
  bsp_sync();
  bsp_direct_get((bsp_pid() + 1) % bsp_nprocs(), &mine, 0, &theirs, sizeof theirs);
  if (theirs != 7 * ((bsp_pid() + 1) % bsp_nprocs())) bsp_abort("bsp_direct_get read %d", theirs);
  bsp_sync();
  bsp_pop_reg(&mine);
  bsp_end();
  return 0;
}
C
"$bspcc" -O2 mcbsp_compat_mode.c -o mcbsp_compat_mode $extra && "$bspcheck" run -q -p 1-3 --seeds 2 ./mcbsp_compat_mode \
  && echo "ok: MCBSP_COMPATIBILITY_MODE gives the classic interface" || fail "mcbsp_compat_mode.c"

# The compatibility mode changes the interface's types, not the memory model: MulticoreBSP's
# processes are still threads sharing the program's globals, and bspcc --dialect=mcbsp has no
# reason to warn of a stray mcbsp.h.
cat > mcbsp_compat_globals.c <<'C'
#define MCBSP_COMPATIBILITY_MODE
#include <mcbsp.h>
static int counter = 0;
static void spmd(void) {
  bsp_begin(bsp_nprocs());
  if (bsp_pid() == bsp_nprocs() - 1) counter = 42;
  bsp_sync();
  if (counter != 42) bsp_abort("process %d sees counter = %d: the globals are not shared", bsp_pid(), counter);
  bsp_end();
}
int main(int argc, char **argv) {
  bsp_init(spmd, argc, argv);
  spmd();
  return 0;
}
C
if "$bspcc" --dialect=mcbsp -O1 mcbsp_compat_globals.c -o mcbsp_compat_globals $extra 2>compat_globals.err; then
  if [ -s compat_globals.err ]; then fail "bspcc --dialect=mcbsp warns of a compatibility-mode program: $(cat compat_globals.err)"; fi
  "$bspcheck" run -q -p 1-4 --seeds 3 ./mcbsp_compat_globals \
    && echo "ok: MCBSP_COMPATIBILITY_MODE keeps MulticoreBSP's shared globals" || fail "mcbsp_compat_globals.c"
else
  fail "mcbsp_compat_globals.c does not build"
fi

# A size the engine cannot hold is a finding at the call site, not a truncation.
cat > too_big.c <<'C'
#include <bsp.h>
#include <stdint.h>
int main(void) {
  bsp_begin(bsp_nprocs());
  static double x[4];
  bsp_push_reg(x, sizeof x);
  bsp_sync();
  bsp_put(0, x, x, 0, (size_t)INT32_MAX + 1); /* line 8 */
  bsp_sync();
  bsp_end();
  return 0;
}
C
"$bspcc" --dialect=mcbsp -O2 too_big.c -o too_big $extra
if "$bspcheck" run -p 2 --seeds 1 ./too_big >too_big.out 2>&1; then
  fail "too_big.c ran clean"
elif ! grep -q "api-misuse" too_big.out || ! grep -q "too_big.c:8" too_big.out || ! grep -q "2147483648" too_big.out; then
  fail "too_big.c: no api-misuse at too_big.c:8 naming the size:"
  cat too_big.out
else
  echo "ok: a size_t beyond INT_MAX is api-misuse at the call"
fi

# bsp_pid outside bsp_begin/bsp_end is misuse (the paper defines it for the p processes only),
# reported even by a program that never calls bsp_begin.
cat > pid_without_begin.c <<'C'
#include <bsp.h>
#include <stdio.h>
int main(void) {
  printf("%d\n", bsp_pid());
  return 0;
}
C
"$bspcc" -O2 pid_without_begin.c -o pid_without_begin $extra
if "$bspcheck" run -p 1 --seeds 1 ./pid_without_begin >pid.out 2>&1; then
  fail "bsp_pid without bsp_begin ran clean"
elif ! grep -q "api-misuse" pid.out; then
  fail "bsp_pid without bsp_begin: no api-misuse finding:"
  cat pid.out
else
  echo "ok: bsp_pid without bsp_begin is api-misuse"
fi

# MulticoreBSP's processes are threads that share the program's globals: what main sets after
# bsp_init is seen by every process (the classic dialect gives each process its own copy, as
# separate processes have), unless globals=private is chosen; two processes writing one global in
# a superstep are a data race there (global-shared).
cat > mcbsp_shared_globals.c <<'C'
#include <bsp.h>
#include <stdio.h>
long n; /* set by main after bsp_init */
unsigned P;
void spmd(void) {
  bsp_begin(P);
  if (n != 42) bsp_abort("process %u sees n = %ld", bsp_pid(), n);
  if (bsp_pid() == 0) printf("all processes see n = %ld\n", n);
  bsp_end();
}
int main(int argc, char **argv) {
  bsp_init(spmd, argc, argv);
  n = 42;
  P = bsp_nprocs();
  spmd();
  return 0;
}
C
"$bspcc" --dialect=mcbsp -O2 mcbsp_shared_globals.c -o mcbsp_shared_globals $extra
if ! "$bspcheck" run -q -p 1-4 --seeds 3 ./mcbsp_shared_globals; then
  fail "mcbsp: processes do not share the globals main set"
elif BSPCHECK_OPTIONS=procs=3:globals=private ./mcbsp_shared_globals >private.out 2>&1 || ! grep -q "sees n = 0" private.out; then
  fail "mcbsp with globals=private: processes 1..p-1 should not see main's n"
  cat private.out
else
  echo "ok: MulticoreBSP processes share globals by default; globals=private still wins"
fi

cat > mcbsp_race.c <<'C'
#include <bsp.h>
long counter;
int main(void) {
  bsp_begin(bsp_nprocs());
  counter += bsp_pid() + 1; /* every thread writes the one shared counter: a data race */
  bsp_sync();
  bsp_end();
  return 0;
}
C
"$bspcc" --dialect=mcbsp -O2 mcbsp_race.c -o mcbsp_race $extra
if "$bspcheck" run -p 2 --seeds 1 ./mcbsp_race >race.out 2>&1 || ! grep -q "global-shared" race.out || ! grep -q "counter" race.out; then
  fail "mcbsp: two threads writing one global is not a global-shared finding naming it"
  cat race.out
else
  echo "ok: two MulticoreBSP processes writing one global is global-shared, naming the variable"
fi

# The Oxford toolset's level-1 operations are built on the primitives and checked like them: a
# bsp_bcast into a dst the program never registered is reg-unregistered at the program's line
# (line 8 below), not inside the library.
cat > oxford_bcast.c <<'C'
#include "bsp.h"
#include "bsp_level1.h"
int main(void) {
  int x = 0, y = 0;
  bsp_begin(bsp_nprocs());
  x = 42;
  y = bsp_sumI(1);
  bsp_bcast(0, &x, &y, sizeof x);
  bsp_end();
  return 0;
}
C
"$bspcc" -O2 oxford_bcast.c -o oxford_bcast $extra
"$bspcheck" run -p 2 --seeds 1 ./oxford_bcast >oxford_bcast.out 2>&1
if ! grep -q "reg-unregistered" oxford_bcast.out || ! grep -q "oxford_bcast.c:8" oxford_bcast.out; then
  fail "oxford: bsp_bcast into an unregistered dst is not reg-unregistered at the program's line"
  cat oxford_bcast.out
else
  echo "ok: an Oxford bsp_bcast into an unregistered dst is reg-unregistered at the program's line"
fi

# bsp_level1.h (Oxford) and bspcheck/level1.h (bsp-check's) give bsp_bcast other arguments.
cat > both_level1.c <<'C'
#include <bsp_level1.h>
#include <bspcheck/level1.h>
C
must_not_build both_level1.c "include one of them" "$bspcc"

# A MulticoreBSP program with its own copy of mcbsp.h beside its source (as BSPedupack-based
# projects ship it): the copy wins over bsp-check's, the program calls the classic entry points,
# and bspcc --dialect=mcbsp says so once it has linked; the dialect's own header gives no warning.
mkdir -p own_header
cat > own_header/mcbsp.h <<'C'
#ifndef MY_MCBSP_H
#define MY_MCBSP_H
void bsp_begin(int P);
void bsp_end(void);
int bsp_pid(void);
int bsp_nprocs(void);
void bsp_sync(void);
#endif
C
cat > own_header/prog.c <<'C'
#include "mcbsp.h"
int main(void) {
  bsp_begin(bsp_nprocs());
  bsp_sync();
  bsp_end();
  return 0;
}
C
if ! "$bspcc" --dialect=mcbsp own_header/prog.c -o own_header/prog $extra 2>own_header.err; then
  fail "own_header/prog.c did not build"; cat own_header.err
elif ! grep -q "warning: own_header/prog calls the classic BSPlib entry points although --dialect=mcbsp" own_header.err; then
  fail "bspcc --dialect=mcbsp did not warn of the program's own mcbsp.h:"; cat own_header.err
else
  echo "ok: a program's own mcbsp.h is warned of at the link"
fi
"$bspcc" --dialect=mcbsp -O2 mcbsp_types.c -o mcbsp_types $extra 2>mcbsp_types.err
if grep -q "classic BSPlib entry points" mcbsp_types.err; then
  fail "bspcc warned of its own mcbsp.h:"; cat mcbsp_types.err
fi

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "all dialect checks passed"
