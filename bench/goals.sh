#!/usr/bin/env bash
# goals.sh: every goal of issue 47 (speed where users feel it) measured in one run, each figure
# next to its target, as one markdown table; the benchmarks' own tables follow it, so that every
# figure can be traced to the rows it came from.
#
#   bench/goals.sh [BUILD_DIR]       (default <repo>/build: a build with the benchmarks, the default)
#
# Environment: BENCH_REPS (repetitions, median; default 3 here), GOALS_SEEDS (schedules for goals
# 1 and 7, default 1000), GOALS_BIG_P (goal 2's large process count, default 1000000; smaller for a
# smoke run), GOALS_FULL=1 (also 2x10^6 ring processes for goal 2's memory: about two
# minutes and 10 GiB). Figures are ratios measured side by side in this one run wherever the goal
# is a ratio; the machine's load moves absolute figures (docs/performance.md records them).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$(dirname "$here")/build}
export BENCH_REPS=${BENCH_REPS:-3}
seeds=${GOALS_SEEDS:-1000}
b="$build/bench"
for x in "$b/bench_scale" "$b/bench_page_touch" "$b/bench_checks" "$b/bench_messages" "$b/bench_comm" "$b/bench_switch" \
  "$build/tools/bsp-check" "$build/bspcc"; do
  [ -x "$x" ] || { echo "goals.sh: $x is missing: build $build with the benchmarks first" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log() { echo "goals.sh: $*" >&2; }

log "goals 1 and 7: schedules per second (bench_sanitizer_workers.sh, $seeds seeds)"
bash "$here/bench_sanitizer_workers.sh" "$build" "$seeds" >"$work/workers.md"
log "goal 2: the cost per process at p = 1,000 and ${GOALS_BIG_P:-1000000} (bench_scale)"
big_p=${GOALS_BIG_P:-1000000}
scale_args=(1000 16 "$big_p" 16)
[ "${GOALS_FULL:-0}" = 1 ] && scale_args+=(2000000 16)
BENCH_RING_STEPS=3 BENCH_EMPTY_STEPS=5 "$b/bench_scale" "${scale_args[@]}" >"$work/scale.md"
# The same at the large p in round robin's order, and the machine's own floor for the random one
# (bench_page_touch): what the goal's ratio is made of (docs/performance.md, "where the time goes").
BENCH_STRATEGY=round_robin BENCH_RING_STEPS=3 BENCH_EMPTY_STEPS=5 "$b/bench_scale" 1000 16 "$big_p" 16 >"$work/scale_rr.md"
"$b/bench_page_touch" 1000 16384 >"$work/touch.md"
"$b/bench_page_touch" "$big_p" 16384 >>"$work/touch.md"
log "goal 3: the checks (bench_checks)"
"$b/bench_checks" >"$work/checks.md"
log "goal 4: messages (bench_messages, bench_comm, bench_switch)"
"$b/bench_messages" >"$work/messages.md"
"$b/bench_comm" 4 >"$work/comm.md"
"$b/bench_switch" >"$work/switch.md"
log "goals 5 and 6: the driver's replay, recording and determinism check (bench_driver_overheads.sh)"
bash "$here/bench_driver_overheads.sh" "$build" >"$work/driver.md"

python3 - "$work" "$big_p" <<'PY'
import sys
work, big_p = sys.argv[1], int(sys.argv[2])

def rows(name):
    out = []
    for line in open(f"{work}/{name}.md"):
        if line.startswith("|") and not line.startswith("|---"):
            out.append([c.strip() for c in line.strip().strip("|").split("|")])
    return out

def find(name, first, *needles, col=2):
    for r in rows(name):
        if r[0] == first and all(n in " ".join(r) for n in needles):
            return float(r[col])
    raise SystemExit(f"goals.sh: no row '{first}' {needles} in {name}")

table = []
def goal(number, what, figure, target, met):
    table.append(f"| {number} | {what} | {figure} | {target} | {'met' if met else 'missed'} |")
def context(number, what, figure):  # not a goal: a figure that explains one
    table.append(f"| {number} | {what} | {figure} | (context) | |")

# 1. Sanitizer builds through the fork server's workers.
for label in ("tiny, -fsanitize=address, workers", "tiny, -fsanitize=address,undefined, workers"):
    rate, times = find("workers", label, col=2), find("workers", label, col=3)
    goal(1, label.replace("tiny, ", "tiny program, "), f"{rate:.0f}/s, {times:.1f}x plain",
         ">= 1,000/s, <= 5x plain", rate >= 1000 and times <= 5)

# 2. Flat scale: ns per process per superstep at 10^6 against 10^3.
def per_process(kind, p):
    ms = find("scale", kind, f"p={p},")
    return ms * 1e6 / p
for kind in ("empty superstep", "ring: superstep"):
    small, big = per_process(kind, 1000), per_process(kind, big_p)
    goal(2, f"{kind}, ns per process, p = {big_p:,} / p = 1,000", f"{big:.0f} / {small:.0f} ns = {big / small:.1f}x",
         "<= 3x", big / small <= 3)
for kind in ("empty superstep", "ring: superstep"):
    ms_small, ms_big = (find("scale_rr", kind, f"p={p},") * 1e6 / p for p in (1000, big_p))
    context(2, f"{kind}, round robin's order (memory's order), p = {big_p:,} / p = 1,000",
            f"{ms_big:.0f} / {ms_small:.0f} ns = {ms_big / ms_small:.1f}x")
small, big = (find("touch", "page touch: random", f"N={n},") for n in (1000, big_p))
context(2, f"the machine alone: one line of a random 16 KiB slot per visit, N = {big_p:,} / N = 1,000",
        f"{big:.0f} / {small:.0f} ns = {big / small:.1f}x")
try:
    rss = find("scale", "ring: peak RSS", "p=2000000,")
    goal(2, "2x10^6 ring processes, peak RSS", f"{rss / 1024:.1f} GiB", "<= 24 GiB", rss / 1024 <= 24)
except SystemExit:
    pass  # GOALS_FULL=1 measures it

# 3. The checks.
for label, limit in (("checks: hp ring, 16 bsp_hpput of 64 B per superstep", 1.5),
                     ("checks: bsp_put 16 B, overlapping partially", 1.5),
                     ("checks: kernel, inner product", 1.1), ("checks: kernel, all-to-all of 8 B puts", 1.1)):
    x = find("checks", label)
    goal(3, label.replace("checks: ", "checks on/off, "), f"{x:.2f}x", f"<= {limit}x", x <= limit)

# 4. Many small messages.
ratio = find("messages", "messages: large / small", "checks on")
goal(4, "8-byte all-to-all, per message: 10^6 messages / 400", f"{ratio:.2f}x", "<= 1.5x", ratio <= 1.5)
send = find("comm", "comm: bsp_send 8 B", "checks on")
move = find("comm", "comm: bsp_move 8 B", "checks on")
floor = find("comm", "comm: memcpy floor 8 B")
switch = find("switch", "switch: runtime switch_context")
need = floor + switch
goal(4, "one 8-byte message (send + queue + move) / (two copies + one switch)",
     f"{send + move:.0f} / {need:.0f} ns = {(send + move) / need:.1f}x", "<= 3x", (send + move) / need <= 3)

# 5 and 6. The driver.
replay = find("driver", "replay through bsp-check replay", col=2)
record = find("driver", "recording (--trace)", col=2)
goal(5, "bsp-check replay / a plain run of the seed", f"{replay:.2f}x", "<= 1.15x", replay <= 1.15)
goal(5, "bsp-check run --trace / a plain run of the seed", f"{record:.2f}x", "<= 1.1x", record <= 1.1)
one = find("driver", "one-run session with the determinism check", col=2)
fifty = find("driver", "50-run session with the determinism check", col=2)
goal(6, "one-run session, wall time, check on / off", f"{one:.2f}x", "<= 1.2x", one <= 1.2)
goal(6, "50-run session, wall time, check on / off", f"{fifty:.2f}x", "<= 1.05x", fifty <= 1.05)

# 7. The tiny program on two cores, and examples/hello beside it.
for label in ("tiny, plain", "examples/hello, plain"):
    rate = find("workers", label)
    goal(7, f"{label.replace(', plain', '')}, run -p 4 --seeds, default -j", f"{rate:.0f}/s", ">= 10,000/s",
         rate >= 10000)

print("| goal | workload | measured | target | status |")
print("|---|---|---|---|---|")
print("\n".join(table))
PY
for f in workers scale scale_rr touch checks messages comm switch driver; do
  echo
  cat "$work/$f.md"
done
