#!/usr/bin/env zsh
# zsh_completion_test.zsh BSP-CHECK COMPLETION_DIR: the generated zsh completion (_bsp-check,
# _bspcc) completes what a user types, in a real interactive zsh: commands, each command's own
# options, the values of --strategy (the options table's list) with a space or '=', the rule ids of
# --disable (also after a comma), and bspcc's --dialect= values. The zsh runs on a pseudo-terminal
# (zpty) with compinit loading the completion from COMPLETION_DIR; every match zsh offers is
# recorded by a wrapper of compadd, the builtin all completion functions add matches with.
zmodload zsh/zpty || { print "FAIL: no zsh/zpty"; exit 1 }
driver="${1:A}" dir="${2:A}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work" && touch prog.c
fail=0

# completions LINE: the matches offered at the end of LINE, one per line, sorted.
completions() {
  local out="$work/matches"
  : >| "$out"
  zpty z zsh -f -i
  zpty -w z "PROMPT= ; fpath=(${(q)dir} \$fpath); autoload -Uz compinit; compinit -u -D"
  # The options -O, -A and -D ask compadd for matches without adding them: not offered.
  zpty -w z "compadd() { if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd \"\$@\"; return; fi;\
 local -a m; builtin compadd -A m \"\$@\"; (( \$#m )) && print -rl -- \$m >> ${(q)out}; builtin compadd \"\$@\"; }"
  zpty -w z "bindkey '^I' complete-word; zstyle ':completion:*' menu no"
  # Each step ends with a marker that the echo of the command cannot contain ($((...)) is
  # printed evaluated): the line is typed once the editor is up, and read once it has completed.
  zpty -w z "print READY-\$((6*7))"
  await READY-42 || { print "FAIL: zsh did not start"; zpty -d z; return }
  zpty -w -n z "$1"$'\t'
  zpty -w z $'\C-u'"print DONE-\$((6*7))"
  await DONE-42 || print "FAIL: zsh did not finish completing '$1'"
  zpty -d z
  sort -u "$out"
}
await() {  # await MARKER: read the terminal until MARKER (30 s at most)
  local chunk all="" i
  for i in {1..300}; do
    zpty -rt z chunk 2>/dev/null && all+="$chunk"
    [[ $all == *$1* ]] && return 0
    sleep 0.1
  done
  return 1
}
expect() {  # expect LINE WANTED...: each WANTED is offered
  local got="$(completions "$1")" w
  for w in "${@[2,-1]}"; do
    [[ ${${(f)got}[(Ie)$w]} -gt 0 ]] || { print -r "FAIL: '$1': '$w' not offered (got: ${(f)got})"; fail=1 }
  done
}
refuse() {  # refuse LINE UNWANTED
  local got="$(completions "$1")"
  [[ ${${(f)got}[(Ie)$2]} -eq 0 ]] || { print -r "FAIL: '$1': '$2' offered"; fail=1 }
}

strategies=(${(f)"$("$driver" --list-options --json | python3 -c 'import json,sys
print("\n".join(next(o for o in json.load(sys.stdin) if o["key"] == "strategy")["syntax"].replace(" or ", ", ").split(", ")))')"})
(( $#strategies >= 2 )) || { print "FAIL: strategies from the options table: $strategies"; fail=1 }

expect "bsp-check sh" show shrink
expect "bsp-check run --strat" --strategy
expect "bsp-check --strategy " $strategies
expect "bsp-check run --strategy=" $strategies
expect "bsp-check --disable bounds-p" bounds-put
expect "bsp-check --disable reg-leak,bounds-p" bounds-put
expect "bsp-check replay --" --prefix --timeout
refuse "bsp-check replay --" --seeds
expect "bsp-check -p 4 pro" prog.c
expect "bspcc --dialect=" mcbsp bsplib
expect "bspcxx --sh" --showme
(( fail == 0 )) && print "zsh completion test: ok"
exit $fail
