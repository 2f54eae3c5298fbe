#!/usr/bin/env bash
# completion_test.sh BSP-CHECK COMPLETION_DIR: the generated bash completion completes what a user
# types: commands, each command's own options, the values of --strategy (the options table's
# list), the rule ids of --disable (also after a comma), file names for the program's own
# arguments (a name with a space as one word), and bspcc's --dialect= values. Runs the completion
# functions as bash's programmable completion would, with COMP_WORDS split as readline splits them
# (at '=' too).
set -uo pipefail
driver="$(realpath "$1")"; dir="$(realpath "$2")"
# shellcheck disable=SC1090,SC1091
source "$dir/bsp-check" && source "$dir/bspcc" || { echo "FAIL: the completion scripts do not load"; exit 1; }
fail=0
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work" && touch -- prog.c --strange-name "my prog"

# complete FUNCTION WORD... : the completions of the last word.
complete_words() {
  local fn="$1"; shift
  COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
  "$fn" 2>/dev/null
  printf '%s\n' "${COMPREPLY[@]}" | sort
}
expect() {  # expect "what" WANTED GOT: every line of WANTED is in GOT
  local w
  while read -r w; do
    [ -z "$w" ] && continue
    grep -qxF -- "$w" <<<"$3" || { echo "FAIL: $1: '$w' not offered (got: $(tr '\n' ' ' <<<"$3"))"; fail=1; }
  done <<<"$2"
}
refuse() {  # refuse "what" UNWANTED GOT
  grep -qxF -- "$2" <<<"$3" && { echo "FAIL: $1: '$2' offered"; fail=1; }
  return 0
}

got="$(complete_words _bsp_check bsp-check sh)"
expect "commands" "$(printf 'show\nshrink')" "$got"
got="$(complete_words _bsp_check bsp-check run --strat)"
expect "run's options" "--strategy" "$got"
strategies="$("$driver" --list-options --json |
  python3 -c 'import json,sys; print("\n".join(next(o for o in json.load(sys.stdin) if o["key"] == "strategy")["syntax"].replace(" or ", ", ").split(", ")))')"
[ "$(wc -l <<<"$strategies")" -ge 2 ] || { echo "FAIL: strategies from the options table: $strategies"; fail=1; }
expect "--strategy values" "$strategies" "$(complete_words _bsp_check bsp-check --strategy '')"
expect "--strategy=values" "$strategies" "$(complete_words _bsp_check bsp-check run --strategy = '')"
expect "--disable" "bounds-put" "$(complete_words _bsp_check bsp-check --disable bounds-p)"
expect "--disable after a comma" "reg-leak,bounds-put" "$(complete_words _bsp_check bsp-check --disable reg-leak,bounds-p)"
got="$(complete_words _bsp_check bsp-check replay --)"
expect "replay's options" "--prefix" "$got"
refuse "replay's options" "--seeds" "$got"
# After the program, its own arguments: files, even one that looks like an option of run.
got="$(complete_words _bsp_check bsp-check -p 4 ./prog --str)"
expect "the program's arguments" "--strange-name" "$got"
refuse "the program's arguments" "--strategy" "$got"
expect "the program" "prog.c" "$(complete_words _bsp_check bsp-check run -p 4 pro)"
expect "a file name with a space" "my prog" "$(complete_words _bsp_check bsp-check --json my)"
expect "bspcc --dialect=" "$(printf 'mcbsp\nbsplib')" "$(complete_words _bspcc bspcc --dialect = '')"
expect "bspcxx options" "--showme" "$(complete_words _bspcc bspcxx --sh)"
[ "$fail" = 0 ] && echo "completion test: ok"
exit "$fail"
