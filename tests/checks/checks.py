#!/usr/bin/env python3
"""End-to-end tests of the checker rules (stdlib only): examples/checks/<rule>.c must make the rule
fire at the marked line, and <rule>_ok.c must stay clean.

Subcommands:
  fires   run the buggy example under `bsp-check run --keep-going --json` and check
          - the exit status (1 when the rule is an error, 0 when it is a warning, unless other
            error findings are allowed with --also),
          - that a finding with the rule id and its documented severity appears: in EVERY run
            (deterministic rules) or, with --some, in at least one run (schedule-dependent ones),
          - that its locations name the lines of the source marked with a comment
            "BUG: <rule>" (or "AT: <rule>" where the rule's location is by definition a nearby
            BSPlib call, e.g. the last one before a crash); a marker ending in "(some seeds)"
            needs to be found in one run only. The lines are found by scanning the source, so the
            test cannot drift from the example;
          - that the finding is where the marker says: every marker ends in "@ superstep S,
            process P" (P a number, "last" for p - 1, or "any" where the schedule picks the
            process), and each run with the rule at that line has it there in superstep S by P;
          - that no other rule fires than those given with --also;
          - that the first run with the finding reproduces exactly with `-p P --seed S`.
  clean   run the correct twin for every p in a list and many seeds and check that every run
          passes with zero findings, warnings included, and that bsp-check exits 0.
  control the rule controls on a warning example (--program, --source, --rule) and an error
          example (--error-program, --error-rule): --werror, --disable, --suppressions, the same
          through BSPCHECK_OPTIONS for a direct run, and unknown rule ids.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

TIMEOUT = 900


# "BUG: <rule> [(some seeds)] @ superstep S, process P": P a process number, "last" (p - 1), or
# "any" where the schedule decides which process it is (the first to run, the one that loses a race).
MARK_RE = re.compile(r"/\*\s*(BUG|AT):\s*([a-z0-9-]+)(\s*\(some seeds\))?"
                     r"(?:\s*@\s*superstep\s+(\d+),\s*process\s+(\d+|last|any))?")


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def severity(bsp_check, rule):
    """The rule's severity in the rule catalogue (which tests/rules keeps equal to docs/checks.md)."""
    out = subprocess.run([bsp_check, "--list-rules", "--json"], stdin=subprocess.DEVNULL, capture_output=True,
                         text=True, timeout=TIMEOUT, check=True).stdout
    for r in json.loads(out):
        if r["id"] == rule:
            return r["severity"]
    raise Failure(f"'{rule}' is not a rule of bsp-check --list-rules")


def marked_lines(source, rule):
    """[(line, every_run)] of the lines marked for rule in source."""
    return [(n, every) for n, every, _ in marked_positions(source, rule)]


def marked_positions(source, rule):
    """[(line, every_run, (superstep, process) or None)] of the lines marked for rule in source."""
    out = []
    with open(source, encoding="utf-8") as f:
        for n, text in enumerate(f, start=1):
            for m in MARK_RE.finditer(text):
                if m.group(2) == rule:
                    out.append((n, m.group(3) is None, (int(m.group(4)), m.group(5)) if m.group(4) else None))
    return out


def position_problems(tag, run, mine, base, line, position):
    """A run whose findings of the rule reach the marked line must have one there in the marked
    superstep, naming the marked process at that line (others may be there too: every process
    can make the same mistake)."""
    superstep, process = position
    nprocs = run.get("nprocs") or run.get("procs")
    want = {"last": [nprocs - 1], "any": list(range(nprocs))}.get(process) or [int(process)]
    at_line = [(f, l) for f in mine for l in f.get("locations", []) if loc_matches(l, base, line)]
    if not at_line or any(f.get("superstep") == superstep and l.get("process") in want for f, l in at_line):
        return []
    got = sorted({(f.get("superstep"), l.get("process")) for f, l in at_line})
    who = "any process" if process == "any" else f"process {want[0]}"
    return [f"{tag}: no [{mine[0].get('rule')}] at {base}:{line} in superstep {superstep} by {who} "
            f"(the marker: superstep {superstep}, process {process}); (superstep, process) there: {got}"]


def planned_runs(procs, seeds):
    """How many runs `-p procs --seeds seeds --keep-going` makes: one per process count and seed.
    procs is the driver's list syntax: "1-8", "2", "1-4,8"."""
    counts = set()
    for part in procs.split(","):
        lo, _, hi = part.partition("-")
        counts.update(range(int(lo), int(hi or lo) + 1))
    return len(counts) * seeds


def check_run_count(runs, args):
    """The session made every run asked for: a twin "clean in 200 runs" must have had 200."""
    want = planned_runs(args.procs, args.seeds)
    check(len(runs) == want, f"{len(runs)} runs in the JSON report, expected {want} (p = {args.procs}, "
                             f"{args.seeds} seeds each)")


def run_bsp_check(args, extra, program_args=()):
    with tempfile.TemporaryDirectory(prefix="bsp-check-checks-") as tmp:
        out_json = os.path.join(tmp, "runs.json")
        cmd = [args.bsp_check, "run", "-q", "--keep-going", "--json", out_json] + extra
        if args.timeout:
            cmd += ["--timeout", str(args.timeout)]
        cmd += [args.program] + list(program_args)
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
        check(os.path.exists(out_json),
              f"bsp-check wrote no JSON (exit {proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-3000:]}")
        with open(out_json, encoding="utf-8") as f:
            data = json.load(f)
    return cmd, proc, data


def loc_matches(loc, base, line):
    return os.path.basename(loc.get("file", "")) == base and loc.get("line") == line


def describe(f):
    locs = ", ".join(f"{os.path.basename(l.get('file', '')) or '?'}:{l.get('line')}"
                     f" ({l.get('call')}, process {l.get('process')})" for l in f.get("locations", []))
    return f"{f.get('severity')}[{f.get('rule')}] superstep {f.get('superstep')}: {f.get('message')} at {locs}"


ADDRESS_RE = re.compile(r"0x[0-9a-fA-F]+")
RUNNING_RE = re.compile(r"\(process \d+ was running\)")


def key(f):
    # Addresses in messages differ between runs (address space layout randomisation), and which
    # process a timeout interrupts depends on the wall clock.
    msg = RUNNING_RE.sub("(process ? was running)", ADDRESS_RE.sub("0x?", f.get("message", "")))
    return (f.get("rule"), f.get("severity"), msg, f.get("superstep"), tuple(f.get("processes", [])),
            tuple((l.get("file"), l.get("line"), l.get("process"), l.get("call")) for l in f.get("locations", [])))


def cmd_fires(args):
    rule = args.rule
    base = os.path.basename(args.source)
    positions = marked_positions(args.source, rule)
    lines = [(line, every) for line, every, _ in positions]
    check(lines, f"{base} has no line marked 'BUG: {rule}'")
    # Every marker says where the finding is, not only which line: the superstep and the process
    # (README: "every finding names the rule, the process, the superstep and the line").
    unplaced = [line for line, _, position in positions if position is None]
    check(not unplaced, f"{base}: the marker(s) of [{rule}] at line(s) {unplaced} carry no "
                        f"'@ superstep S, process P'")
    sev = severity(args.bsp_check, rule)
    extra = ["-p", args.procs, "--seed", str(args.seed), "--seeds", str(args.seeds)]
    cmd, proc, data = run_bsp_check(args, extra, args.program_args)
    runs = data["runs"]
    check_run_count(runs, args)
    allowed = {rule} | set(args.also)

    hit_runs = []  # runs where the rule fired with every every-run line located
    found_line = {line: 0 for line, _ in lines}
    problems = []
    any_error = False
    for r in runs:
        tag = f"p={r['procs']} seed={r['seed']}"
        fs = r.get("findings", [])
        any_error = any_error or any(f.get("severity") == "error" for f in fs)
        others = sorted({f.get("rule") for f in fs} - allowed)
        if others:
            problems.append(f"{tag}: unexpected rule(s) {others}: " +
                            "; ".join(describe(f) for f in fs if f.get("rule") in others))
        mine = [f for f in fs if f.get("rule") == rule]
        for f in mine:
            if f.get("severity") != sev:
                problems.append(f"{tag}: [{rule}] has severity {f.get('severity')}, documented: {sev}")
            if not f.get("message"):
                problems.append(f"{tag}: [{rule}] has an empty message")
        if not mine:
            if not args.some:
                problems.append(f"{tag}: [{rule}] did not fire; findings: " +
                                ("; ".join(describe(f) for f in fs) or "none") +
                                (f"; reason: {r['reason']}" if r.get("reason") else ""))
            continue
        for line, _, position in positions:
            problems += position_problems(tag, r, mine, base, line, position)
        located = True
        for line, every in lines:
            ok = any(loc_matches(l, base, line) for f in mine for l in f.get("locations", []))
            if ok:
                found_line[line] += 1
            elif every:
                located = False
                if not args.some:
                    problems.append(f"{tag}: no [{rule}] finding is located at {base}:{line}; got: " +
                                    "; ".join(describe(f) for f in mine))
        if located:
            hit_runs.append(r)
        check(r.get("passed") is (not any(f.get("severity") == "error" for f in fs)),
              f"{tag}: run marked passed={r.get('passed')} with findings {[describe(f) for f in fs]}")

    if args.some and not hit_runs:
        problems.append(f"[{rule}] was not found at the marked line(s) in any of the {len(runs)} runs")
    for line, every in lines:
        if found_line[line] == 0:
            problems.append(f"no run has a [{rule}] finding located at {base}:{line}")

    expected_status = 1 if any_error else 0
    if sev == "error":
        check(any_error or not hit_runs, "internal: error rule fired without an error finding")
    if proc.returncode != expected_status:
        problems.append(f"bsp-check exited with {proc.returncode}, expected {expected_status} "
                        f"({'error findings' if any_error else 'warnings only'})")
    if problems:
        raise Failure("\n".join([" ".join(cmd)] + problems[:20] +
                                ([f"... and {len(problems) - 20} more"] if len(problems) > 20 else [])))

    # Reproducible: the first run that found the bug, again on its own, gives the same findings.
    first = hit_runs[0]
    _, proc2, data2 = run_bsp_check(args, ["-p", str(first["procs"]), "--seed", str(first["seed"])],
                                    args.program_args)
    again = data2["runs"]
    check(len(again) == 1, f"rerun gave {len(again)} runs")
    a = sorted(key(f) for f in first["findings"])
    b = sorted(key(f) for f in again[0]["findings"])
    check(a == b, f"p={first['procs']} seed={first['seed']} does not reproduce:\n  first: {a}\n  again: {b}")
    first_status = 1 if any(f.get("severity") == "error" for f in first["findings"]) else 0
    check(proc2.returncode == first_status, f"rerun exited with {proc2.returncode}, expected {first_status}")

    print(f"ok: [{rule}] ({sev}) fired in {len(hit_runs)} of {len(runs)} runs at "
          + ", ".join(f"{base}:{line}" for line, _ in lines)
          + f"; exit status {proc.returncode}; reproduced p={first['procs']} seed={first['seed']}")
    sample = next(f for f in first["findings"] if f.get("rule") == rule)
    print("  e.g. " + describe(sample))


def cmd_clean(args):
    extra = ["-p", args.procs, "--seed", str(args.seed), "--seeds", str(args.seeds)]
    cmd, proc, data = run_bsp_check(args, extra, args.program_args)
    runs = data["runs"]
    check_run_count(runs, args)
    problems = []
    for r in runs:
        tag = f"p={r['procs']} seed={r['seed']}"
        fs = r.get("findings", [])
        if fs:
            problems.append(f"{tag}: " + "; ".join(describe(f) for f in fs))
        if not r.get("passed"):
            problems.append(f"{tag}: run failed (exit {r.get('exit_status')}"
                            + (f", {r['reason']}" if r.get("reason") else "") + ")")
    if proc.returncode != 0:
        problems.append(f"bsp-check exited with {proc.returncode}")
    if problems:
        raise Failure("\n".join([" ".join(cmd)] + problems[:20] +
                                ([f"... and {len(problems) - 20} more"] if len(problems) > 20 else [])))
    print(f"ok: {os.path.basename(args.program)} clean in {len(runs)} runs (p = {args.procs}, "
          f"seeds {args.seed}..{args.seed + args.seeds - 1})")


def plain_run(args, program, extra, env=None):
    """One bsp-check run; returns (exit status, findings of all runs)."""
    with tempfile.TemporaryDirectory(prefix="bsp-check-checks-") as tmp:
        out_json = os.path.join(tmp, "runs.json")
        cmd = [args.bsp_check, "run", "-q", "--keep-going", "--json", out_json] + extra + [program]
        if os.environ.get("CHECKS_OPTIONS_FIRST"):  # debugging aid: rule options before the others
            cmd = [args.bsp_check, "run"] + extra + ["-q", "--keep-going", "--json", out_json, program]
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=TIMEOUT, env=env)
        if not os.path.exists(out_json):
            return proc.returncode, None, proc.stderr
        with open(out_json, encoding="utf-8") as f:
            data = json.load(f)
    return proc.returncode, [f for r in data["runs"] for f in r.get("findings", [])], proc.stderr


def direct_run(program, options):
    """The program run directly with BSPCHECK_OPTIONS; returns (exit status, findings)."""
    with tempfile.TemporaryDirectory(prefix="bsp-check-checks-") as tmp:
        report = os.path.join(tmp, "report.json")
        env = dict(os.environ)
        env.pop("BSPCHECK_REPORT", None)
        env["BSPCHECK_OPTIONS"] = options + ":report=" + report
        proc = subprocess.run([program], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=TIMEOUT, env=env)
        check(os.path.exists(report), f"BSPCHECK_OPTIONS={env['BSPCHECK_OPTIONS']} {program}: no report "
              f"(exit {proc.returncode}): {proc.stderr[-2000:]}")
        with open(report, encoding="utf-8") as f:
            data = json.load(f)
    return proc.returncode, data.get("findings", [])


def cmd_control(args):
    helptext = subprocess.run([args.bsp_check, "run", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True).stdout
    # Every bsp-check has them: their absence is a failure, not a reason to skip.
    check("--werror" in helptext and "--disable" in helptext and "--suppressions" in helptext,
          "bsp-check run --help shows no --werror/--disable/--suppressions")
    warn, warn_rule, err, err_rule = args.program, args.rule, args.error_program, args.error_rule
    line = marked_lines(args.source, warn_rule)[0][0]
    base = os.path.basename(args.source)
    # The rule options come last, right before PROGRAM, the way docs/checks.md shows them.
    p = ["-p", args.procs, "--seeds", "3"]
    rules = lambda fs: sorted({f["rule"] for f in fs or []})  # noqa: E731

    st, fs, _ = plain_run(args, warn, p)
    check(st == 0 and warn_rule in rules(fs), f"baseline: exit {st}, rules {rules(fs)}")
    st, fs, _ = plain_run(args, warn, p + ["--werror"])
    check(st == 1, f"--werror: a warning must fail the run, exit {st}")
    check(all(f["severity"] == "warning" for f in fs if f["rule"] == warn_rule), "--werror changed the severity")
    st, fs, _ = plain_run(args, warn, p + ["--werror", "--disable", warn_rule])
    check(st == 0 and not fs, f"--disable {warn_rule} --werror: exit {st}, findings {rules(fs)}")
    st, fs, _ = plain_run(args, err, p + ["--disable", err_rule])
    check(st == 0 and not fs, f"--disable {err_rule}: exit {st}, findings {rules(fs)}")
    st, fs, _ = plain_run(args, err, p + ["--disable", "reg-leak," + err_rule])
    check(st == 0 and not fs, f"--disable reg-leak,{err_rule}: exit {st}, findings {rules(fs)}")
    st, fs, err_text = plain_run(args, warn, p + ["--disable", "no-such-rule"])
    check(st == 2, f"--disable no-such-rule: exit {st}, expected 2 (bad usage)")

    with tempfile.TemporaryDirectory(prefix="bsp-check-checks-") as tmp:
        sup = os.path.join(tmp, "supp.txt")
        with open(sup, "w", encoding="utf-8") as f:
            f.write(f"# the known collision\n{warn_rule} {base}:{line}\n")
        st, fs, _ = plain_run(args, warn, p + ["--werror", "--suppressions", sup])
        check(st == 0 and not fs, f"suppressions '{warn_rule} {base}:{line}': exit {st}, findings {rules(fs)}")
        with open(sup, "w", encoding="utf-8") as f:
            f.write(f"{warn_rule} {base}:{line + 1000}\n* other_file.c\n")
        st, fs, _ = plain_run(args, warn, p + ["--werror", "--suppressions", sup])
        check(st == 1 and warn_rule in rules(fs), f"a suppression of another line must not match: exit {st}")
        with open(sup, "w", encoding="utf-8") as f:
            f.write(f"* *{os.sep}{base}\n")
        st, fs, _ = plain_run(args, err, p + ["--suppressions", sup])
        check(st == 1 and fs, f"'* */{base}' must not suppress findings in another file: exit {st}")
        st, fs, _ = plain_run(args, warn, p + ["--werror", "--suppressions", sup])
        check(st == 0 and not fs, f"'* */{base}': exit {st}, findings {rules(fs)}")
        with open(sup, "w", encoding="utf-8") as f:
            f.write("no-such-rule\n")
        st, _, _ = plain_run(args, warn, p + ["--suppressions", sup])
        check(st == 2, f"a suppressions file with an unknown rule: exit {st}, expected 2")

    nprocs = args.procs.split("-")[-1].split(",")[-1]
    st, fs = direct_run(warn, f"seed=1:procs={nprocs}")
    check(st == 0 and warn_rule in rules(fs), f"direct run: exit {st}, rules {rules(fs)}")
    st, fs = direct_run(warn, f"seed=1:procs={nprocs}:werror=1")
    check(st == 1, f"direct run with werror=1: exit {st}")
    st, fs = direct_run(warn, f"seed=1:procs={nprocs}:werror=1:disable={warn_rule}")
    check(st == 0 and not fs, f"direct run with disable={warn_rule}: exit {st}, findings {rules(fs)}")
    st, fs = direct_run(err, f"seed=1:procs={nprocs}:disable=reg-leak,{err_rule}")
    check(st == 0 and not fs, f"direct run with disable=reg-leak,{err_rule}: exit {st}, findings {rules(fs)}")
    print(f"ok: --werror, --disable, --suppressions and BSPCHECK_OPTIONS control [{warn_rule}] and [{err_rule}]")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["fires", "clean", "control"])
    ap.add_argument("--bsp-check", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--source", help="the example's source (fires)")
    ap.add_argument("--rule", help="the rule id (fires)")
    ap.add_argument("--procs", default="1-8")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--some", action="store_true", help="schedule-dependent: one run suffices")
    ap.add_argument("--also", action="append", default=[], help="another rule that may fire too")
    ap.add_argument("--timeout", type=float, default=0, help="bsp-check --timeout")
    ap.add_argument("--error-program", help="control: an example whose rule is an error")
    ap.add_argument("--error-rule", help="control: its rule")
    ap.add_argument("program_args", nargs="*")
    args = ap.parse_args()
    try:
        if args.command == "fires":
            if not args.source or not args.rule:
                ap.error("fires needs --source and --rule")
            cmd_fires(args)
        elif args.command == "control":
            return cmd_control(args)
        else:
            cmd_clean(args)
    except Failure as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1
    except subprocess.TimeoutExpired as e:
        print(f"FAILED: timed out: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
