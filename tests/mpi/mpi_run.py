#!/usr/bin/env python3
"""Tests of the MPI back end (stdlib only; docs/mpi.md). Every run has a timeout, so a rank that
hangs fails the test instead of stalling CTest, and mpiexec's own timeout ends the job's ranks.

Subcommands:
  agree    run a program built for the engine (directly, BSPCHECK_OPTIONS=procs=P) and its twin
           built with --backend=mpi (mpiexec -n P) for every P of a list: both exit 0 and print
           the same lines (as multisets: the ranks' lines interleave in any order under MPI), and
           the job's report (report=PATH) says what the engine's run's says (processes granted,
           supersteps, findings);
           with --check NAME, the lines are also those tests/e2e/e2e.py computes for the example
  fires    run an examples/checks program under mpiexec: it exits nonzero (0 for a warning) and
           prints the finding with the rule id at the line marked "BUG: <rule> @ superstep S,
           process P" in the source, in superstep S, naming process P; the job's one report
           (report=PATH, gathered at rank 0) holds exactly the findings the ranks printed
  clean    a correct program (an examples/checks *_ok.c twin) exits 0 under mpiexec with no
           finding, warnings included, and a completed report with none
  ends     a job whose rank crashes, hangs or leaves the SPMD part early ends (nonzero status)
           with --expect-rule's finding when given (in the report too, which the rank that ended
           the job writes), and leaves no process of the program behind; with timeout= and
           --stuck K, every rank says where it was (K running, the others waiting in bsp_sync)
  refuses  a bad option value (check=, disable=, timeout=) or an unwritable report= ends the job at
           bsp_begin: exit 2, one line naming the key
  shrinks  a failing job's records shrink (bsp-check shrink PATH -- ENGINE) to a minimal trace that
           names the engine's program and replays, on its own, to the job's finding
  fits     each rank's record says how much memory its data took: the replay refuses beforehand
           (exit 2, one line) where their sum exceeds a data size limit, runs where it fits
  merged   a failing job's report (report=PATH) through bsp-check merge: SARIF names the rule at
           the marked lines, JUnit has one failing case, the JSON one run reproduced by mpiexec;
           two jobs are two runs, one job's report given twice one
  kept     a job whose every rank made a finding is stopped before its ranks gather them: by the
           launcher's timeout (--how hang: no report is written) or by one rank's crash (--how
           crash: that rank writes the report alone); each rank's findings are in its partial
           report (PATH.rank<K>), and bsp-check merge PATH joins them into one failing run with
           every rank's finding at the marked line
  record   run a program under mpiexec with trace=PATH: every rank writes PATH.rank<K>; bsp-check
           replay PATH -- ENGINE (the program's twin built for the engine) prints the same lines
           and the same findings (rule, superstep, lines), which the engine's own seeds do not all
           give, and so does the trace bsp-check merge-trace makes of them; explore --from the
           records finds a schedule one choice from the run that prints other lines (and refuses an
           engine trace); the replay of the
           program with the argument "extra" (a changed program) notes the change and reports
           replay-divergence; a missing rank's record is refused, by merge-trace too (with
           --only-agree: the same lines, findings and exit status only)
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, os.path.join(HERE, "..", "checks"))
import checks  # noqa: E402  (the BUG markers' reader)
import e2e  # noqa: E402  (the examples' expected output)

TIMEOUT = 60
FINDING_RE = re.compile(r"^bsp-check: (error|warning)\[([a-z0-9-]+)\]: superstep (\d+): (.*)$")
AT_RE = re.compile(r"^  at (.*):(\d+) \(([^,]*), process (\d+)")


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def run(cmd, stdin="", env=None):
    full_env = dict(os.environ)
    full_env.pop("BSPCHECK_OPTIONS", None)
    full_env.update(env or {})
    try:
        return subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=TIMEOUT, env=full_env)
    except subprocess.TimeoutExpired as e:
        raise Failure(f"timed out after {TIMEOUT} s: {' '.join(cmd)}\n{e.stderr or ''}")


def mpiexec(a, p, program, args=()):
    return [a.mpiexec, "-n", str(p), program] + list(args)


# MPICH's hydra and Open MPI's mpirun end the job when a rank dies, and (MPIEXEC_TIMEOUT) when it
# runs too long: no rank outlives a hang. (Open MPI's permission to oversubscribe and to run as
# root comes from the test's environment: tests/mpi/CMakeLists.txt.)
MPI_ENV = {"MPIEXEC_TIMEOUT": str(TIMEOUT - 10)}


def procs_list(spec):
    out = []
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


def lines(text):
    return collections.Counter(line for line in text.splitlines() if line.strip())


def cmd_agree(a):
    for p in procs_list(a.procs):
        tmp = tempfile.TemporaryDirectory()
        eng_report, report = os.path.join(tmp.name, "engine.json"), os.path.join(tmp.name, "job.json")
        eng = run([a.engine] + a.args, a.stdin, {"BSPCHECK_OPTIONS": f"procs={p}:report={eng_report}"})
        check(eng.returncode == 0, f"p={p}: the engine's run exited {eng.returncode}:\n{eng.stderr}")
        res = run(mpiexec(a, p, a.program, a.args), a.stdin, with_report(MPI_ENV, report))
        check(res.returncode == 0, f"p={p}: mpiexec exited {res.returncode}:\n{res.stdout}\n{res.stderr}")
        # The job's report says what the engine's run's says of the same program.
        with open(eng_report, encoding="utf-8") as f:
            want = json.load(f)
        got = check_report(report, p, [])
        fields = ("completed", "nprocs", "supersteps", "aborted", "findings")
        check(all(got[k] == want[k] for k in fields),
              f"p={p}: the job's report differs from the engine's run's in "
              f"{[(k, got[k], want[k]) for k in fields if got[k] != want[k]]}")
        tmp.cleanup()
        got, want = lines(res.stdout), lines(eng.stdout)
        check(got == want, f"p={p}: the MPI run's lines differ from the engine's:\n"
                           f"only under MPI: {sorted((got - want).elements())}\n"
                           f"only in the engine: {sorted((want - got).elements())}")
        if a.check:
            expected = collections.Counter(line for _, line in e2e.EXPECT[a.check](p, a.args, a.stdin))
            check(got == expected, f"p={p}: the MPI run's lines are not the example's:\n"
                                   f"got {sorted(got.elements())}\nwant {sorted(expected.elements())}")
        print(f"p={p}: {sum(got.values())} lines, as the engine's")
    return 0


def findings(stderr):
    """[(severity, rule, superstep, message, [(file, line, call, process)])] printed by the ranks."""
    out = []
    for text in stderr.splitlines():
        m = FINDING_RE.match(text)
        if m:
            out.append((m.group(1), m.group(2), int(m.group(3)), m.group(4), []))
            continue
        m = AT_RE.match(text)
        if m and out:
            out[-1][4].append((m.group(1), int(m.group(2)), m.group(3), int(m.group(4))))
    return out


def with_report(env, path):
    """env with report=PATH added to its BSPCHECK_OPTIONS."""
    opts = env.get("BSPCHECK_OPTIONS", "")
    return dict(env, BSPCHECK_OPTIONS=(opts + ":" if opts else "") + f"report={path}")


def read_report(path, p):
    """The job's report (report=PATH): one file, gathered from the ranks, naming the job."""
    check(os.path.exists(path), f"p={p}: the job wrote no report at {path}")
    with open(path, encoding="utf-8") as f:
        r = json.load(f)
    check(r.get("format") == "bsp-check-report" and r.get("backend") == "mpi" and r.get("ranks") == p,
          f"p={p}: not an MPI job's report of {p} ranks: {json.dumps(r)[:400]}")
    check(os.path.basename(r.get("program", "")) != "" and isinstance(r.get("args"), list),
          f"p={p}: the report does not name the program: {json.dumps(r)[:400]}")
    return r


def report_findings(r):
    """The report's findings in the form findings() reads them from the ranks' stderr."""
    return [(f["severity"], f["rule"], f["superstep"], f["message"],
             [(l["file"], l["line"], l["call"], l["process"]) for l in f["locations"]]) for f in r["findings"]]


def check_report(path, p, printed):
    """The report holds the findings the ranks printed: all of them when the ranks ended the job
    together (at bsp_end, or at a sync they stopped at), else those of the rank that ended it."""
    r = read_report(path, p)
    key = lambda f: (f[0], f[1], f[2], f[3], tuple(f[4]))  # noqa: E731
    got, want = collections.Counter(map(key, report_findings(r))), collections.Counter(map(key, printed))
    together = r["from_ranks"] == list(range(r["nprocs"]))  # the ranks bsp_begin granted
    if together:  # the ranks' partial reports went when the whole one was written
        left = partial_reports(path)
        check(not left, f"p={p}: partial reports left beside a gathered report: {left}")
    check(got == want if together else got and not got - want,
          f"p={p}: the report's findings (from ranks {r['from_ranks']}) are not those printed:\n"
          f"only in the report: {sorted((got - want).elements())}\n"
          f"only printed: {sorted((want - got).elements())}")
    return r


def partial_reports(path):
    """The ranks' partial reports beside the job's report=PATH: PATH.rank<K>."""
    folder, base = os.path.split(path)
    return sorted(n for n in os.listdir(folder) if re.fullmatch(re.escape(base) + r"\.rank\d+", n))


def cmd_fires(a):
    base = os.path.basename(a.source)
    marks = [(line, pos) for line, _, pos in checks.marked_positions(a.source, a.rule)]
    if a.call:  # only the marked lines that make this call (the others are the engine's to decide)
        with open(a.source, encoding="utf-8") as f:
            text = f.read().splitlines()
        marks = [(line, pos) for line, pos in marks if a.call + "(" in text[line - 1]]
    check(marks, f"{base} has no line marked 'BUG: {a.rule}'" + (f" calling {a.call}" if a.call else ""))
    for p in procs_list(a.procs):
        tmp = tempfile.TemporaryDirectory()
        report = os.path.join(tmp.name, "job.json")
        res = run(mpiexec(a, p, a.program), env=with_report(MPI_ENV, report))
        if a.warning:
            check(res.returncode == 0, f"p={p}: a warning only, yet exit {res.returncode}:\n{res.stderr}")
        else:
            check(res.returncode != 0, f"p={p}: exited 0 with the bug in it:\n{res.stderr}")
        found = findings(res.stderr)
        check(found, f"p={p}: no finding printed:\n{res.stdout}\n{res.stderr}")
        rules = {f[1] for f in found}
        check(rules <= {a.rule} | set(a.also), f"p={p}: other rules fired: {sorted(rules)}\n{res.stderr}")
        for line, pos in marks:
            superstep, process = pos if pos else (None, "any")
            want_pid = p - 1 if process == "last" else (None if process == "any" else int(process))
            hit = any(f[1] == a.rule and (superstep is None or f[2] == superstep) and
                      any(os.path.basename(l[0]) == base and l[1] == line and (want_pid is None or l[3] == want_pid)
                          for l in f[4]) for f in found)
            check(hit, f"p={p}: no {a.rule} at {base}:{line} in superstep {superstep} by process {process}:\n"
                       f"{res.stderr}")
        r = check_report(report, p, found)
        tmp.cleanup()
        print(f"p={p}: the report holds {len(r['findings'])} findings (from ranks {r['from_ranks']})")
        print(f"p={p}: {a.rule} at {base}:{','.join(str(m[0]) for m in marks)}, exit {res.returncode}")
    return 0


def cmd_clean(a):
    env = dict(MPI_ENV, **({"BSPCHECK_OPTIONS": a.options} if a.options else {}))
    for p in procs_list(a.procs):
        with tempfile.TemporaryDirectory() as tmp:
            report = os.path.join(tmp, "job.json")
            res = run(mpiexec(a, p, a.program), env=with_report(env, report))
            found = findings(res.stderr)  # none at all, warnings included (as tests/checks asks of the twins)
            check(res.returncode == 0 and not found, f"p={p}: exit {res.returncode}, findings:\n{res.stderr}")
            r = read_report(report, p)
            check(r["completed"] and not r["findings"] and r["from_ranks"] == list(range(r["nprocs"])),
                  f"p={p}: a clean job's report: {json.dumps(r)[:600]}")
        print(f"p={p}: clean")
    return 0


def leftovers(program):
    """The processes still running the program (by its process name, which the kernel cuts at 15
    characters; not by command line, which this script's own holds too)."""
    res = subprocess.run(["pgrep", "-x", os.path.basename(program)[:15]], capture_output=True, text=True)
    return res.stdout.split()


def cmd_ends(a):
    env = dict(MPI_ENV, **({"BSPCHECK_OPTIONS": a.options} if a.options else {}))
    if a.timeout:
        env["MPIEXEC_TIMEOUT"] = str(a.timeout)
    for p in procs_list(a.procs):
        tmp = tempfile.TemporaryDirectory()
        report = os.path.join(tmp.name, "job.json")
        res = run(mpiexec(a, p, a.program, a.args), env=with_report(env, report))
        check(res.returncode != 0, f"p={p}: the job exited 0:\n{res.stderr}")
        # mpiexec has returned; its ranks' exits may take a moment to be reaped.
        for _ in range(50):
            if not leftovers(a.program):
                break
            time.sleep(0.2)
        check(not leftovers(a.program), f"p={p}: processes left behind: {leftovers(a.program)}")
        if a.expect_rule:
            check(any(f[1] == a.expect_rule for f in findings(res.stderr)),
                  f"p={p}: no {a.expect_rule} finding:\n{res.stderr}")
            # The rank that ended the job wrote what it found (a hang's job is killed: no report).
            r = check_report(report, p, findings(res.stderr))
            check(not r["completed"] and any(f["rule"] == a.expect_rule for f in r["findings"]),
                  f"p={p}: the report of a job that {a.expect_rule} ended: {json.dumps(r)[:600]}")
        if a.stuck is not None:
            # Every rank said where it was: the stuck one not at the barrier, the others waiting in it.
            states = {l[3]: l[2] for f in findings(res.stderr) if f[1] == a.expect_rule for l in f[4]}
            lines = [t for t in res.stderr.splitlines() if f"error[{a.expect_rule}]" in t]
            said = {k: next((t for t in lines if f"process {k} was " in t), "") for k in range(p)}
            check(all("running, not at the barrier" in said[k] if k == a.stuck else "waiting in bsp_sync" in said[k]
                      for k in range(p)) and sorted(states) == list(range(p)),
                  f"p={p}: not every rank said where it was (process {a.stuck} stuck):\n{res.stderr}")
        tmp.cleanup()
        print(f"p={p}: the job ended with status {res.returncode}")
    return 0


def finding_places(found):
    """What a replay must report again: each finding's rule, superstep and source lines (once: a
    rank prints what it decides alone, where the engine prints it once per call site)."""
    return sorted({(f[1], f[2], tuple(sorted({(os.path.basename(l[0]), l[1]) for l in f[4]}))) for f in found})


def program_lines(text):
    """The program's lines, sorted: the ranks' lines interleave in any order under mpiexec."""
    return sorted(line for line in text.splitlines() if line.strip() and not line.startswith("bsp-check:"))


def cmd_record(a):
    for p in procs_list(a.procs):
        with tempfile.TemporaryDirectory() as tmp:
            prefix = os.path.join(tmp, "run.trace")
            res = run(mpiexec(a, p, a.program), a.stdin, env=dict(MPI_ENV, BSPCHECK_OPTIONS=f"trace={prefix}"))
            check(res.returncode == a.status, f"p={p}: the MPI run exited {res.returncode}:\n{res.stderr}")
            records = sorted(f for f in os.listdir(tmp) if f.startswith("run.trace.rank"))
            check(records == [f"run.trace.rank{k}" for k in range(p)], f"p={p}: the ranks' records: {records}")
            mpi_out, mpi_found = program_lines(res.stdout), finding_places(findings(res.stderr))
            check((mpi_out or a.only_agree) and (mpi_found or (a.only_agree and mpi_out)),
                  f"p={p}: the MPI run printed no lines or no finding:\n{res.stdout}{res.stderr}")
            rep = run([a.bsp_check, "replay", prefix, "--", a.engine], a.stdin)
            check(rep.returncode == a.status, f"p={p}: the replay exited {rep.returncode}:\n{rep.stderr}")
            check(program_lines(rep.stdout) == mpi_out,
                  f"p={p}: the replay printed\n{rep.stdout}where the MPI run printed\n{res.stdout}")
            # Merged on its own (merge-trace), from any one record, into another file: the same replay.
            kept = os.path.join(tmp, "job.trace")
            merged = run([a.bsp_check, "merge-trace", f"{prefix}.rank{p - 1}", "-o", kept])
            check(merged.returncode == 0 and f"merged the records of {p} MPI rank" in merged.stderr,
                  f"p={p}: merge-trace exited {merged.returncode}:\n{merged.stderr}")
            again = run([a.bsp_check, "replay", kept, "--", a.engine], a.stdin)
            check(again.returncode == a.status and program_lines(again.stdout) == mpi_out,
                  f"p={p}: the replay of merge-trace's trace printed\n{again.stdout}{again.stderr}")
            rep_found = finding_places(findings(rep.stderr))
            if a.engine_finds_more:  # the MPI run's findings, and more that only the engine decides
                more = [f for f in rep_found if f not in mpi_found]
                check(set(mpi_found) < set(rep_found) and all(f[0] in a.engine_finds_more for f in more),
                      f"p={p}: the replay found\n{rep.stderr}where the MPI run found\n{res.stderr}")
                print(f"p={p}: the engine finds more than the MPI run: {more}")
            else:
                check(rep_found == mpi_found,
                      f"p={p}: the replay found\n{rep.stderr}where the MPI run found\n{res.stderr}")
            if a.only_agree:
                print(f"p={p}: the replay agrees: {len(mpi_out)} lines, findings {[f[0] for f in mpi_found]}")
                continue
            # The record decided it: the engine's own seeds print other lines.
            seeded = [program_lines(run([a.engine], env={"BSPCHECK_OPTIONS": f"procs={p}:seed={s}"}).stdout)
                      for s in range(1, 9)]
            check(any(out != mpi_out for out in seeded), f"p={p}: every seed prints the MPI run's lines {mpi_out}")
            # The search from the MPI run (explore --from): its default schedule is the run, and one
            # choice away from it (another queue order or collision winner) prints other lines.
            exp = run([a.bsp_check, "explore", "--from", prefix, "--bound", "1", "--trace-dir", tmp, "--", a.engine])
            said = exp.stdout + exp.stderr
            check(exp.returncode == 1 and "is the search's default schedule" in said and
                  "error[schedule-divergence]" in said and "(p = %d, 1 non-default choice)" % p in said,
                  f"p={p}: explore --from the MPI run exited {exp.returncode}:\n{said}")
            # -p given: the run's process count in any spelling is taken, another is refused.
            same = run([a.bsp_check, "explore", "--from", prefix, "-p", f"{p}-{p}", "--bound", "0", "--", a.engine])
            check(same.returncode == 0, f"p={p}: explore --from -p {p}-{p} exited {same.returncode}:\n{same.stderr}")
            other = run([a.bsp_check, "explore", "--from", prefix, "-p", str(p + 1), "--", a.engine])
            check(other.returncode == 2 and f"recorded a run of {p} processes" in other.stderr,
                  f"p={p}: explore --from -p {p + 1} exited {other.returncode}:\n{other.stderr}")
            engine_trace = next(os.path.join(tmp, n) for n in os.listdir(tmp) if n.endswith("-explore.trace"))
            refused = run([a.bsp_check, "explore", "--from", engine_trace, "--", a.engine])
            check(refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1 and
                  "not an MPI job's record" in refused.stderr,
                  f"p={p}: explore --from an engine trace exited {refused.returncode}:\n{refused.stderr}")
            changed = run([a.bsp_check, "replay", prefix, "--", a.engine, "extra"])
            check(changed.returncode != 0 and "differ from the recorded run" in changed.stderr and
                  "error[replay-divergence]" in changed.stderr and "bsp_send by process 1" in changed.stderr,
                  f"p={p}: the changed program's replay exited {changed.returncode}:\n{changed.stderr}")
            os.remove(f"{prefix}.rank{p - 1}")
            os.remove(prefix)
            missing = run([a.bsp_check, "replay", prefix, "--", a.engine])
            check(missing.returncode == 2 and f"run.trace.rank{p - 1}: missing" in missing.stderr,
                  f"p={p}: a missing rank's record: exit {missing.returncode}:\n{missing.stderr}")
            unmerged = run([a.bsp_check, "merge-trace", prefix])
            check(unmerged.returncode == 2 and f"run.trace.rank{p - 1}: missing" in unmerged.stderr and
                  len(unmerged.stderr.strip().splitlines()) == 1,
                  f"p={p}: merge-trace of records with one missing: exit {unmerged.returncode}:\n{unmerged.stderr}")
        print(f"p={p}: replayed {mpi_out} with {[f[0] for f in mpi_found]}")
    return 0


def cmd_merged(a):
    """A job's report, through `bsp-check merge`, gives the reports of `bsp-check run`: the rule at
    the marked line in SARIF, a failing JUnit case, one run of p processes reproduced by mpiexec."""
    base = os.path.basename(a.source)
    lines = [line for line, _, _ in checks.marked_positions(a.source, a.rule)]
    check(lines, f"{base} has no line marked 'BUG: {a.rule}'")
    p = a.procs
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "job.json")
        res = run(mpiexec(a, p, a.program), env=with_report(MPI_ENV, report))
        check(res.returncode != 0, f"the job exited 0 with the bug in it:\n{res.stderr}")
        out = {k: os.path.join(tmp, f"merged.{k}") for k in ("json", "sarif", "junit")}
        merged = run([a.bsp_check, "merge", "--json", out["json"], "--sarif", out["sarif"], "--junit", out["junit"], report])
        named = f"p={p} MPI job (run report 1)"  # an MPI job has no seed to name it by
        check(merged.returncode == 1 and f"first failure {named}" in merged.stderr,
              f"merge of a failing job's report exited {merged.returncode}:\n{merged.stderr}")
        with open(out["json"], encoding="utf-8") as f:
            runs = json.load(f)["runs"]
        check(len(runs) == 1 and runs[0]["procs"] == p and not runs[0]["passed"] and runs[0].get("mpi_ranks") == p and
              runs[0]["reproduce"].startswith(f"mpiexec -n {p} ") and runs[0]["reproduce"].endswith(os.path.basename(a.program)),
              f"the merged run: {json.dumps(runs)[:600]}")
        with open(out["sarif"], encoding="utf-8") as f:
            results = json.load(f)["runs"][0]["results"]
        places = {(r["ruleId"], os.path.basename(l["physicalLocation"]["artifactLocation"]["uri"]),
                   l["physicalLocation"]["region"]["startLine"]) for r in results for l in r.get("locations", [])}
        check(all((a.rule, base, line) in places for line in lines), f"SARIF: {sorted(places)}, want {a.rule} at {lines}")
        # The job has no seed: each result names it by its run report and ranks.
        refs = [ref for r in results for ref in r["properties"]["runs"]]
        check(refs and all(ref.get("run_report") == 1 and ref.get("mpi_ranks") == p for ref in refs),
              f"SARIF runs of the job: {refs}")
        with open(out["junit"], encoding="utf-8") as f:
            junit = f.read()
        check(junit.count("<testcase") == 1 and junit.count("<failure") == 1 and f'name="{named}"' in junit,
              f"JUnit:\n{junit[:600]}")
        # Two jobs at one p stay two runs in stats too (they have no seed to tell them apart, only
        # their job's number); one job's report given twice is one run.
        second = os.path.join(tmp, "second.json")
        run(mpiexec(a, p, a.program), env=with_report(MPI_ENV, second))
        both, twice = os.path.join(tmp, "both.json"), os.path.join(tmp, "twice.json")
        run([a.bsp_check, "merge", "--json", both, report, second])
        stats = run([a.bsp_check, "stats", both])
        check(stats.returncode == 0 and re.search(r"\b2 runs\b", stats.stdout) and named in stats.stdout,
              f"stats of two jobs' reports merged:\n{stats.stdout}{stats.stderr}")
        run([a.bsp_check, "merge", "--json", twice, report, report])
        with open(twice, encoding="utf-8") as f:
            check(len(json.load(f)["runs"]) == 1, "one job's report given twice is not one run")
    print(f"p={p}: merged into SARIF ({a.rule} at {base}:{lines}), JUnit and JSON")
    return 0


def cmd_kept(a):
    """A job stopped before it gathers its report keeps every rank's findings (PATH.rank<K>)."""
    base = os.path.basename(a.source)
    lines = [line for line, _, _ in checks.marked_positions(a.source, a.rule)]
    check(lines, f"{base} has no line marked 'BUG: {a.rule}'")
    env = dict(MPI_ENV)
    if a.how == "hang":
        env["MPIEXEC_TIMEOUT"] = "4"  # the launcher kills the job: no rank writes the report
    for p in procs_list(a.procs):
        with tempfile.TemporaryDirectory() as tmp:
            report = os.path.join(tmp, "job.json")
            res = run(mpiexec(a, p, a.program, [a.how]), env=with_report(env, report))
            check(res.returncode != 0, f"p={p}: the job exited 0:\n{res.stderr}")
            for _ in range(50):  # the ranks' exits may take a moment to be reaped
                if not leftovers(a.program):
                    break
                time.sleep(0.2)
            check(not leftovers(a.program), f"p={p}: processes left behind: {leftovers(a.program)}")
            check(os.path.exists(report) == (a.how == "crash"),
                  f"p={p}: report written: {os.path.exists(report)} ({a.how})")
            check(partial_reports(report) == [f"job.json.rank{k}" for k in range(p)],
                  f"p={p}: the partial reports: {partial_reports(report)}")
            merged = os.path.join(tmp, "merged.json")
            res = run([a.bsp_check, "merge", "--json", merged, report])
            check(res.returncode == 1 and "joining the partial reports" in res.stderr,
                  f"p={p}: merge exited {res.returncode}:\n{res.stderr}")
            with open(merged, encoding="utf-8") as f:
                runs = json.load(f)["runs"]
            check(len(runs) == 1 and runs[0]["procs"] == p and not runs[0]["passed"] and
                  "did not complete" in runs[0].get("reason", ""), f"p={p}: the merged run: {json.dumps(runs)[:800]}")
            found = runs[0]["findings"]
            # Every rank's finding, at the marked line, naming that rank.
            for k in range(p):
                check(any(f["rule"] == a.rule and any(os.path.basename(l["file"]) == base and l["line"] in lines and
                                                      l["process"] == k for l in f["locations"]) for f in found),
                      f"p={p}: no {a.rule} of process {k} at {base}:{lines} in {json.dumps(found)[:800]}")
            if a.how == "crash":
                check(any(f["rule"] == "crash" and f["processes"] == [p - 1] for f in found),
                      f"p={p}: the crash of process {p - 1} is not in {json.dumps(found)[:800]}")
            check(len(found) == p + (a.how == "crash"), f"p={p}: {len(found)} findings: {json.dumps(found)[:800]}")
        print(f"p={p}: {a.how}: the merged report holds every rank's {a.rule}")
    return 0


def cmd_fits(a):
    """Each rank's record says how much memory its data took; the replay, which runs every rank in
    one process, refuses beforehand (exit 2, one line with what it needs) where their sum exceeds
    what it may take (here a data size limit, as `ulimit -d` sets), and runs where it fits or
    with --no-memory-check. shrink, which replays them too, refuses alike."""
    import resource
    p, mib = a.procs, a.mib
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "run.trace")
        res = run(mpiexec(a, p, a.program, [str(mib)]), env=dict(MPI_ENV, BSPCHECK_OPTIONS=f"trace={prefix}"))
        check(res.returncode == 0, f"the MPI run exited {res.returncode}:\n{res.stderr}")
        rep = run([a.bsp_check, "replay", prefix, "--", a.engine, str(mib)])
        check(rep.returncode == 0 and program_lines(rep.stdout) == program_lines(res.stdout),
              f"the replay (unlimited) exited {rep.returncode}:\n{rep.stdout}{rep.stderr}")
        limit = (p * mib << 20) * 3 // 4  # below the ranks' data added up
        def limited(cmd):
            full_env = {k: v for k, v in os.environ.items() if k != "BSPCHECK_OPTIONS"}
            def cap():
                resource.setrlimit(resource.RLIMIT_DATA, (limit, resource.RLIM_INFINITY))
            return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, env=full_env, preexec_fn=cap)
        refused = limited([a.bsp_check, "replay", prefix, "--", a.engine, str(mib)])
        err = refused.stderr.strip().splitlines()
        m = re.search(r"needs at least (\d+) MiB", refused.stderr)
        check(refused.returncode == 2 and len(err) == 2 and "data size limit, ulimit -d" in err[-1] and m and
              p * mib <= int(m.group(1)) <= p * mib * 2 and not refused.stdout,
              f"the replay under a {limit >> 20} MiB data limit: exit {refused.returncode}:\n{refused.stderr}")
        # shrink replays the same ranks: it is refused alike, before its first run.
        shrunk = limited([a.bsp_check, "shrink", "-q", prefix, "--", a.engine, str(mib)])
        check(shrunk.returncode == 2 and "needs at least" in shrunk.stderr and not shrunk.stdout,
              f"shrink under a {limit >> 20} MiB data limit: exit {shrunk.returncode}:\n{shrunk.stderr}")
        anyway = limited([a.bsp_check, "replay", "--no-memory-check", prefix, "--", a.engine, "1"])
        check("needs at least" not in anyway.stderr,
              f"--no-memory-check was refused all the same:\n{anyway.stderr}")
    print(f"p={p}: {mib} MiB per rank: replayed unlimited, refused under {limit >> 20} MiB ({m.group(1)} MiB needed)")
    return 0


def cmd_shrinks(a):
    """A failing job's records, with the program built for the engine after --, shrink to a minimal
    trace that names that program: its replay, and `bsp-check debug` on it, need nothing more."""
    p = a.procs
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "run.trace")
        res = run(mpiexec(a, p, a.program), env=dict(MPI_ENV, BSPCHECK_OPTIONS=f"trace={prefix}"))
        check(res.returncode != 0, f"the job exited 0 with the bug in it:\n{res.stderr}")
        mpi_found = finding_places(findings(res.stderr))
        shrunk = run([a.bsp_check, "shrink", prefix, "--", a.engine])
        minimal = os.path.join(tmp, "run.min.trace")
        check(shrunk.returncode == 0 and f"fails with {a.rule}" in shrunk.stdout + shrunk.stderr and os.path.exists(minimal),
              f"shrink of the MPI records exited {shrunk.returncode}:\n{shrunk.stdout}{shrunk.stderr}")
        rep = run([a.bsp_check, "replay", minimal])  # no program: the minimal trace names the engine's
        rep_found = finding_places(findings(rep.stderr))
        check(rep.returncode == 1 and rep_found and set(rep_found) <= set(mpi_found),
              f"the minimal trace's replay exited {rep.returncode}, found {rep_found}, the job {mpi_found}:\n"
              f"{rep.stderr}")
    print(f"p={p}: the records shrank to a trace whose replay finds {[f[0] for f in rep_found]}")
    return 0


def cmd_refuses(a):
    """A bad value of an option the back end reads (BSPCHECK_OPTIONS, the engine's keys), or a
    report=PATH rank 0 cannot write, ends the job at bsp_begin: exit status 2, one error line
    naming the key, and nothing of the program's."""
    for options in a.options:
        key = options.split("=", 1)[0]
        res = run(mpiexec(a, 2, a.program), env=dict(MPI_ENV, BSPCHECK_OPTIONS=options))
        said = [t for t in res.stderr.splitlines() if t.startswith("bsp-check: error: BSPCHECK_OPTIONS: ")]
        check(res.returncode == 2 and len(said) == 1 and said[0].startswith(f"bsp-check: error: BSPCHECK_OPTIONS: {key}:")
              and not res.stdout.strip(), f"{options}: exit {res.returncode}:\n{res.stdout}{res.stderr}")
        print(f"{options}: refused: {said[0]}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, allow_abbrev=False, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mpiexec", default="mpiexec")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("agree")
    sp.add_argument("--engine", required=True)
    sp.add_argument("--program", required=True, help="the program built with --backend=mpi")
    sp.add_argument("--procs", default="1-4")
    sp.add_argument("--check", choices=sorted(e2e.EXPECT))
    sp.add_argument("--stdin", default="")
    sp.add_argument("args", nargs="*")
    sp = sub.add_parser("fires")
    sp.add_argument("--program", required=True, help="the program built with --backend=mpi")
    sp.add_argument("--source", required=True)
    sp.add_argument("--rule", required=True)
    sp.add_argument("--also", action="append", default=[])
    sp.add_argument("--procs", default="2-4")
    sp.add_argument("--warning", action="store_true", help="the rule is a warning: the run exits 0")
    sp.add_argument("--call", help="check only the marked lines that call this primitive")
    sp = sub.add_parser("ends")
    sp.add_argument("--program", required=True, help="the program built with --backend=mpi")
    sp.add_argument("--procs", default="2-4")
    sp.add_argument("--expect-rule")
    sp.add_argument("--timeout", type=int, help="MPIEXEC_TIMEOUT for the job (a hang)")
    sp.add_argument("--options", help="BSPCHECK_OPTIONS for the job (timeout=S)")
    sp.add_argument("--stuck", type=int, help="with timeout=: the rank that hangs in its own code")
    sp.add_argument("args", nargs="*")
    sp = sub.add_parser("clean")
    sp.add_argument("--program", required=True, help="the program built with --backend=mpi")
    sp.add_argument("--procs", default="1-4")
    sp.add_argument("--options", help="BSPCHECK_OPTIONS for the runs (check=0, disable=...)")
    sp = sub.add_parser("record")
    sp.add_argument("--program", required=True, help="the program built with --backend=mpi")
    sp.add_argument("--engine", required=True, help="the same program built for the engine")
    sp.add_argument("--bsp-check", required=True)
    sp.add_argument("--procs", default="2-4")
    sp.add_argument("--stdin", default="")
    sp.add_argument("--status", type=int, default=0, help="the exit status of the run and of its replay")
    sp.add_argument("--engine-finds-more", action="append", default=[], metavar="RULE",
                    help="the replay also finds RULE where the MPI run does not (a rule only the engine decides)")
    sp.add_argument("--only-agree", action="store_true",
                    help="only the same lines and findings (a program whose lines no order changes)")
    sp = sub.add_parser("merged")
    sp.add_argument("--program", required=True, help="the program built with --backend=mpi")
    sp.add_argument("--source", required=True)
    sp.add_argument("--rule", required=True)
    sp.add_argument("--procs", type=int, default=3)
    sp.add_argument("--bsp-check", required=True)
    sp = sub.add_parser("kept")
    sp.add_argument("--program", required=True, help="tests/mpi/found_then_stopped.c built with --backend=mpi")
    sp.add_argument("--source", required=True)
    sp.add_argument("--rule", required=True)
    sp.add_argument("--procs", default="2-3")
    sp.add_argument("--how", choices=("hang", "crash"), required=True)
    sp.add_argument("--bsp-check", required=True)
    sp = sub.add_parser("fits")
    sp.add_argument("--program", required=True, help="tests/mpi/big_data.c built with --backend=mpi")
    sp.add_argument("--engine", required=True, help="the same program built for the engine")
    sp.add_argument("--bsp-check", required=True)
    sp.add_argument("--procs", type=int, default=2)
    sp.add_argument("--mib", type=int, default=64)
    sp = sub.add_parser("shrinks")
    sp.add_argument("--program", required=True, help="the program built with --backend=mpi")
    sp.add_argument("--engine", required=True, help="the same program built for the engine")
    sp.add_argument("--bsp-check", required=True)
    sp.add_argument("--rule", required=True)
    sp.add_argument("--procs", type=int, default=3)
    sp = sub.add_parser("refuses")
    sp.add_argument("--program", required=True, help="a program built with --backend=mpi")
    sp.add_argument("options", nargs="+", help="BSPCHECK_OPTIONS values, each to be refused")
    a = ap.parse_args()
    try:
        return {"agree": cmd_agree, "fires": cmd_fires, "clean": cmd_clean, "ends": cmd_ends, "record": cmd_record,
                "merged": cmd_merged, "kept": cmd_kept, "fits": cmd_fits, "shrinks": cmd_shrinks,
                "refuses": cmd_refuses}[a.cmd](a)
    except Failure as e:
        print(f"FAIL: {e}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
