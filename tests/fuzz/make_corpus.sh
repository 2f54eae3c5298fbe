#!/usr/bin/env bash
# Usage: make_corpus.sh BUILD_DIR CORPUS_DIR
# Records a few real traces with the built examples into CORPUS_DIR: the seed corpus of
# trace_reader_fuzzer. The traces are made at test time and never committed. Also adds a few
# hand-made edge cases (a truncated header, a trace cut off at a record boundary).
set -euo pipefail
build="${1:?usage: make_corpus.sh BUILD_DIR CORPUS_DIR}"
out="${2:?usage: make_corpus.sh BUILD_DIR CORPUS_DIR}"
bspcheck="${BSPCHECK:-$build/tools/bsp-check}"
examples="$build/examples"
if [ ! -x "$bspcheck" ]; then
  echo "make_corpus: no bsp-check at $bspcheck (build the project first)" >&2
  exit 1
fi
mkdir -p "$out"
made=0
record() {  # record NAME PROGRAM [bsp-check options...]
  local name="$1" prog="$2"
  shift 2
  if [ ! -x "$prog" ]; then
    echo "make_corpus: skipping $name: no $prog" >&2
    return 0
  fi
  rm -f "$out/$name"
  # Failing runs (the buggy examples) exit 1 but still leave a trace; only a missing trace matters.
  "$bspcheck" run -q --no-keep-trace --timeout 60 "$@" --trace "$out/$name" "$prog" >/dev/null 2>&1 || true
  if [ -s "$out/$name" ]; then
    made=$((made + 1))
  else
    echo "make_corpus: no trace recorded for $name" >&2
    rm -f "$out/$name"
  fi
}

for ex in hello reverse samplesort all_gather_sparse_vec; do
  record "$ex-p4-s3.trace" "$examples/$ex" -p 4 --seed 3
done
record "hello-p1-s1-rr.trace" "$examples/hello" -p 1 --seed 1 --strategy round_robin
record "bsppermute-p3-s5.trace" "$examples/bsppermute" -p 3 --seed 5
# A failing run, recorded with checker options (a non-empty checks string in the header).
record "ring_hp_race-p4-s3.trace" "$examples/buggy/ring_hp_race" -p 4 --seed 3 --werror --disable put-collision
# A crashing run: a trace cut off without its end record.
record "crash-p2-s1.trace" "$examples/checks/crash" -p 2 --seed 1

if [ "$made" -eq 0 ]; then
  echo "make_corpus: no trace could be recorded" >&2
  exit 1
fi
# Hand-made: the first trace cut inside its header, and cut just before its end record.
first="$out/hello-p4-s3.trace"
if [ -s "$first" ]; then
  head -c 20 "$first" >"$out/cut-header.trace"
  size=$(stat -c %s "$first")
  head -c $((size - 5)) "$first" >"$out/cut-before-end.trace"
fi
printf 'BSPTRACE\002\000' >"$out/version-2.trace"
echo "make_corpus: $(ls "$out" | wc -l) inputs in $out"
