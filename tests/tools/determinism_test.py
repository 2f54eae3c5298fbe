#!/usr/bin/env python3
"""uncontrolled-nondeterminism (tools/across_runs/determinism_check.hpp): a program whose BSPlib data depends on
the wall clock and its pid is caught on the first run of a session, with where the runs part; a
deterministic program is not; --no-determinism-check turns it off; --werror makes it fail the run.
A program that only prints its pid or the time is caught by comparing two runs' output, named
with the source, and not blamed on the schedule (no schedule-divergence), with the check on or
off; a single run is checked too. With --virtual-time, a program reading the wall clock prints
the same in every run and session.
Usage: determinism_test.py BSP-CHECK BSPCC PROGRAM-SOURCE DETERMINISTIC-PROGRAM [CFLAGS]"""
import os
import re
import subprocess
import sys
import tempfile

bsp_check, bspcc, source, clean = sys.argv[1:5]
cflags = sys.argv[5].split() if len(sys.argv) > 5 else []  # the sanitizer build's flags
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


# Runs in a folder of its own: a failing run's trace is kept in the current folder.
own_folder = tempfile.mkdtemp()


def run(*args):
    p = subprocess.run([bsp_check, "run", *args], capture_output=True, timeout=300, cwd=own_folder)
    return p.returncode, p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")


with tempfile.TemporaryDirectory() as work:
    prog = os.path.join(work, "nondeterministic")
    subprocess.run([bspcc, *cflags, source, "-o", prog], check=True)
    status, out = run("-p", "2", "--seeds", "3", prog)
    check("warning[uncontrolled-nondeterminism]" in out, f"not reported: {out[-800:]}")
    check("data checksum" in out and "likely source: the same call sends different bytes" in out,
          f"the finding does not say where the runs part: {out[-800:]}")
    check(status == 0, f"a warning failed the session: exit {status}")
    # Located at the put's own line (the traces name the call, not its site: a replay of the first
    # run's trace parts at the call again and names it).
    put_line = next(n for n, text in enumerate(open(source), 1) if "BUG" in text)
    check(re.search(rf"^  at \S*uncontrolled_nondeterminism\.c:{put_line} \(bsp_put, process 0\)$", out, re.M)
          is not None, f"not located at the put, line {put_line}: {out[-800:]}")
    status, out = run("-p", "2", "--seeds", "3", "--werror", prog)
    check(status == 1, f"--werror: exit {status}")
    status, out = run("-p", "2", "--seeds", "3", "--no-determinism-check", prog)
    check("uncontrolled-nondeterminism" not in out and status == 0, f"--no-determinism-check: {out[-500:]}")
    status, out = run("-p", "1-3", "--seeds", "4", "--check-determinism", "--werror", clean)
    check(status == 0 and "uncontrolled-nondeterminism" not in out, f"a deterministic program: {out[-500:]}")

    # A program that sends a heap address (as a cBSP program tells its sender where a halo row is)
    # is deterministic: the check's run has the same heap as the run it checks, down to the length
    # of the folders its options name, whatever the length of $TMPDIR (a single run's check once
    # kept its files under a longer name than the run, and most lengths parted at the put).
    sends_address = os.path.join(work, "sends_address.c")
    with open(sends_address, "w") as f:
        f.write("""#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  bsp_begin(bsp_nprocs());
  double *block = malloc(384), *got = NULL;
  bsp_push_reg(&got, sizeof got);
  bsp_sync();
  bsp_put((bsp_pid() + 1) % bsp_nprocs(), &block, &got, 0, sizeof block);
  bsp_sync();
  printf("%p\\n", (void *)got);
  bsp_pop_reg(&got);
  free(block);
  bsp_end();
  return 0;
}
""")
    addr_prog = os.path.join(work, "sends_address")
    subprocess.run([bspcc, *cflags, sends_address, "-o", addr_prog], check=True)
    # The check's run goes beside the run it checks (tools/across_runs/check_run_beside.hpp) where
    # the input can be given to both at once (a file, /dev/null) and two runs may go at once;
    # after it, in its place, where the input is a stream (a pipe) or -j 1.
    for how, jobs, stdin in (("beside", "2", subprocess.DEVNULL), ("after, -j 1", "1", subprocess.DEVNULL),
                             ("after, a piped input", "2", subprocess.PIPE)):
        for n in range(1, 17):
            tmpdir = os.path.join(work, "t" + "x" * n)
            os.makedirs(tmpdir, exist_ok=True)
            given = {"input": b"x\\n"} if stdin == subprocess.PIPE else {"stdin": stdin}
            p = subprocess.run([bsp_check, "run", "-p", "2", "--seed", "1", "-j", jobs, "--werror", addr_prog],
                               **given, capture_output=True, timeout=300, cwd=own_folder,
                               env=dict(os.environ, TMPDIR=tmpdir))
            out = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
            check(p.returncode == 0 and "uncontrolled-nondeterminism" not in out,
                  f"a single run sending a heap address ({how}), TMPDIR of {len(tmpdir)} characters: "
                  f"exit {p.returncode}: {out[-600:]}")
            left = [f for f in os.listdir(tmpdir) if f.startswith("bsp-check-")]
            check(not left, f"a single run ({how}) left {left} in its TMPDIR")

    # Beside means at once: each run of the program notes its OS pid in a file outside the
    # directories a run's view covers (/dev/shm) and waits, up to 8 s, until two runs have, and
    # notes when it saw two: with the check's run beside, both see two; with -j 1 only the second.
    together = os.path.join(work, "together.c")
    with open(together, "w") as f:
        f.write("""#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static int runs_noted(const char *log) {
  FILE *f = fopen(log, "r");
  int n = 0, c;
  if (!f) return 0;
  while ((c = fgetc(f)) != EOF) n += c == '\\n';
  fclose(f);
  return n;
}
int main(void) {
  const char *log = getenv("TOGETHER_LOG");
  bsp_begin(1);
  FILE *f = fopen(log, "a");
  fprintf(f, "%ld\\n", (long)getpid());
  fclose(f);
  for (int i = 0; i < 800 && runs_noted(log) < 2; ++i) usleep(10000);
  if (runs_noted(log) >= 2) {
    f = fopen(getenv("TOGETHER_SEEN"), "a");
    fprintf(f, "two\\n");
    fclose(f);
  }
  bsp_end();
  return 0;
}
""")
    together_prog = os.path.join(work, "together")
    subprocess.run([bspcc, *cflags, together, "-o", together_prog], check=True)
    refusal = subprocess.run([together_prog], env=dict(os.environ, BSPCHECK_FILE_VIEW="probe"),
                             capture_output=True).stdout.decode(errors="replace")
    views = "bsp-check file view: private" in refusal  # else the check's run cannot go beside
    shm = tempfile.mkdtemp(dir="/dev/shm")
    # Without -j, one per core this process may run on: pinned to one processor (as `taskset -c 0`
    # or a benchmark harness pins it), the check's run goes after the run it checks.
    one_cpu = lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    for jobs, expected in (("2", "together" if views else "alone"), ("1", "alone"), ("pinned", "alone")):
        log, seen = os.path.join(shm, "log" + jobs), os.path.join(shm, "seen" + jobs)
        j_args = [] if jobs == "pinned" else ["-j", jobs]
        p = subprocess.run([bsp_check, "run", "-p", "1", "--seed", "3", *j_args, "--werror", together_prog],
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=300, cwd=own_folder,
                           env=dict(os.environ, TOGETHER_LOG=log, TOGETHER_SEEN=seen),
                           preexec_fn=one_cpu if jobs == "pinned" else None)
        out = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
        pids = open(log).read().split() if os.path.exists(log) else []
        saw_two = len(open(seen).read().split()) if os.path.exists(seen) else 0
        check(p.returncode == 0 and len(set(pids)) == 2,
              f"-j {jobs}: the run and its check's run should each note its pid: {pids}, exit {p.returncode}: "
              f"{out[-400:]}")
        check(saw_two == (2 if expected == "together" else 1),
              f"-j {jobs}: the check's run should have run {expected} with the run it checks ({saw_two} of the "
              f"two runs saw the other; file views: {views})")
    subprocess.run(["rm", "-rf", shm])

    # --virtual-time: a program that reads the wall clock runs the same under every seed and in
    # every session, and its clocks still advance.
    wall = os.path.join(work, "wall_clock")
    subprocess.run([bspcc, *cflags, os.path.join(os.path.dirname(source), "wall_clock.c"), "-o", wall], check=True)
    status, first = run("-p", "2-3", "--seeds", "5", "--check-determinism", "--werror", "--virtual-time", "-v", wall)
    check(status == 0 and "schedule-divergence" not in first, f"--virtual-time: exit {status}: {first[-800:]}")
    check("monotonic 1704067200 s, increasing" in first and "NOT INCREASING" not in first,
          f"virtual clocks: {first[-800:]}")
    status, second = run("-p", "2-3", "--seeds", "5", "--check-determinism", "--werror", "--virtual-time", "-v", wall)
    strip = lambda text: [l for l in text.splitlines() if " in " not in l]  # the summary's seconds
    check(strip(first) == strip(second), "two sessions with --virtual-time print differently")

    # Output only: the traces agree, the output does not. The check compares it and names getpid;
    # the seeds' outputs are not compared after that (no schedule-divergence, exit 0).
    pid = os.path.join(work, "prints_pid")
    subprocess.run([bspcc, *cflags, os.path.join(os.path.dirname(source), "prints_pid.c"), "-o", pid], check=True)
    status, out = run("-p", "2", "--seeds", "4", pid)
    check(status == 0 and "warning[uncontrolled-nondeterminism]" in out and "error[schedule-divergence]" not in out,
          f"pid printed: exit {status}: {out[-1200:]}")
    check("print differently" in out and "line 2" in out and "likely source: getpid()" in out,
          f"the finding does not name the line and getpid: {out[-1200:]}")
    # Located at the last BSPlib call before the differing line (the line's own bsp_pid), in
    # superstep 1, once, and so in the summary table.
    sync_line = next(n for n, text in enumerate(open(os.path.join(os.path.dirname(source), "prints_pid.c")), 1)
                     if "BUG" in text)
    at = re.findall(r"^  at \S*prints_pid\.c:(\d+) \(bsp_pid, process \d+\)$", out, re.M)
    check(at and all(int(n) == sync_line for n in at) and "uncontrolled-nondeterminism]: superstep 1:" in out,
          f"not located at prints_pid.c:{sync_line} in superstep 1: {out[-1200:]}")
    check(re.search(rf"uncontrolled-nondeterminism +\S*prints_pid\.c:{sync_line} ", out) is not None,
          f"the summary's location: {out[-600:]}")
    block = out.split("warning[uncontrolled-nondeterminism]", 1)[-1].split("  rule:", 1)[0]
    check(block.count("  at ") == 1, f"the same location twice: {block}")
    # Without the check, the comparison across seeds finds a seed that disagrees with itself: the
    # same finding, not a schedule-divergence with advice about schedules.
    status, out = run("-p", "2", "--seeds", "4", "--no-determinism-check", pid)
    check(status == 0 and "warning[uncontrolled-nondeterminism]" in out and "error[schedule-divergence]" not in out,
          f"pid printed, --no-determinism-check: exit {status}: {out[-1200:]}")
    status, out = run("-p", "2", "--seeds", "4", "--no-determinism-check", "--werror", pid)
    check(status == 1 and "uncontrolled-nondeterminism" in out, f"--werror: exit {status}: {out[-600:]}")
    # A single run is checked as well (its own run recorded, one more run), and can be turned off.
    status, out = run("-p", "3", "--seed", "7", pid)
    check(status == 0 and "warning[uncontrolled-nondeterminism]" in out and "likely source: getpid()" in out,
          f"single run: exit {status}: {out[-1200:]}")
    shown = [l for l in out.splitlines() if l.startswith("process ") and " runs as " in l]
    check(len(shown) == 3, f"a single run shows its output once, live: {out[-800:]}")
    status, out = run("-p", "3", "--seed", "7", "--no-determinism-check", pid)
    check(status == 0 and "uncontrolled-nondeterminism" not in out, f"single run, no check: {out[-600:]}")
    status, out = run("-p", "3", "--seed", "7", "--werror", clean)
    check(status == 0 and "uncontrolled-nondeterminism" not in out, f"single run of a clean program: {out[-600:]}")
    # A single failing run keeps its own trace (recorded for the check), which replays the failure.
    status, out = run("-p", "2", "--seed", "3", "--werror", pid)
    check(status == 1 and "replay: bsp-check replay" in out, f"single failing run, trace: exit {status}: {out[-600:]}")
    # The wall clock in the output (wall_clock.c without --virtual-time): named as a clock.
    status, out = run("-p", "2", "--seeds", "2", wall)
    check("warning[uncontrolled-nondeterminism]" in out and "error[schedule-divergence]" not in out and
          ("wall clock" in out or "timing" in out or "rand" in out), f"wall clock printed: {out[-1200:]}")

    # A session of many runs records its first run and checks it with one more run, not two: a
    # program that counts its runs in a file outside the runs' own views of the files (the
    # working and temporary directories) is run once more than the session's seeds, whether the
    # check's run goes beside the first (-j 2) or after it (-j 1), and the check still works.
    counts = os.path.join(work, "counts.c")
    with open(counts, "w") as f:
        f.write('#include <bsp.h>\n#include <stdio.h>\n#include <stdlib.h>\n'
                'int main(void) {\n  bsp_begin(2);\n'
                '  if (bsp_pid() == 0) { FILE* f = fopen(getenv("RUN_COUNT_FILE"), "a"); fputc(\'x\', f); fclose(f); }\n'
                '  bsp_sync();\n  bsp_end();\n  return 0;\n}\n')
    subprocess.run([bspcc, *cflags, counts, "-o", counts[:-2]], check=True)
    # Not in a temporary directory nor the working directory (each run sees its own view of those,
    # and a test's working directory may be under $TMPDIR): /dev/shm, else the home folder.
    shared = [d for d in ("/dev/shm", os.path.expanduser("~"))
              if os.path.isdir(d) and os.access(d, os.W_OK) and
              not os.path.realpath(d).startswith(os.path.realpath(tempfile.gettempdir()))]
    check(shared, "no folder outside the runs' views of the files to count runs in")
    count_folder = tempfile.mkdtemp(dir=shared[0] if shared else None)
    count_file = os.path.join(count_folder, "runs")

    def runs_made(*args):
        open(count_file, "w").close()
        p = subprocess.run([bsp_check, "run", "-p", "2", "--seeds", "4", *args, counts[:-2]], capture_output=True,
                           timeout=300, cwd=own_folder, env=dict(os.environ, RUN_COUNT_FILE=count_file))
        check(p.returncode == 0, f"counting runs {args}: exit {p.returncode}: {p.stderr.decode()[-600:]}")
        return os.path.getsize(count_file)

    for jobs in ("1", "2"):
        made = runs_made("-j", jobs)
        check(made == 5, f"-j {jobs}: 4 seeds checked for determinism made {made} runs, not 5")
        made = runs_made("-j", jobs, "--no-determinism-check")
        check(made == 4, f"-j {jobs}: 4 seeds without the check made {made} runs, not 4")
    # The two runs of a passing check write only their traces' digests; where the digests differ,
    # two more runs are recorded whole to say where. A program whose first run (the first to
    # make a marker file) sends other data than every later run: the two runs recorded whole
    # agree, and the finding says that the difference did not recur. Four runs in all.
    first_only = os.path.join(work, "first_only.c")
    with open(first_only, "w") as f:
        f.write('#include <bsp.h>\n#include <fcntl.h>\n#include <stdio.h>\n#include <stdlib.h>\n'
                '#include <unistd.h>\n'
                'int main(void) {\n  bsp_begin(2);\n  int v = 0, w = 0;\n'
                '  if (bsp_pid() == 0) {\n'
                '    FILE* f = fopen(getenv("RUN_COUNT_FILE"), "a"); fputc(\'x\', f); fclose(f);\n'
                '    char marker[4096]; snprintf(marker, sizeof marker, "%s.first", getenv("RUN_COUNT_FILE"));\n'
                '    int fd = open(marker, O_WRONLY | O_CREAT | O_EXCL, 0600);\n'
                '    if (fd >= 0) { v = 1; close(fd); }\n  }\n'
                '  bsp_send(0, NULL, &v, sizeof v);\n  bsp_sync();\n'
                '  if (bsp_pid() == 0) { bsp_move(&w, sizeof w); bsp_move(&w, sizeof w); }\n'
                '  bsp_end();\n  return 0;\n}\n')
    subprocess.run([bspcc, *cflags, first_only, "-o", first_only[:-2]], check=True)
    for session in (["--seed", "1"], ["--seeds", "2", "-j", "1"]):
        open(count_file, "w").close()
        if os.path.exists(count_file + ".first"):
            os.remove(count_file + ".first")
        p = subprocess.run([bsp_check, "run", "-p", "2", *session, first_only[:-2]], capture_output=True, timeout=300,
                           cwd=own_folder, env=dict(os.environ, RUN_COUNT_FILE=count_file), stdin=subprocess.DEVNULL)
        out = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
        check(p.returncode == 0 and "warning[uncontrolled-nondeterminism]" in out and "did not recur" in out,
              f"{session}: digests that differ once: exit {p.returncode}: {out[-1200:]}")
        made = os.path.getsize(count_file)
        check(made == 4 + (len(session) > 2), f"{session}: digests that differ once: {made} runs")
    subprocess.run(["rm", "-rf", count_folder])
    # The first of many runs fails (--werror on the check's own warning): its recording is the
    # failure's trace, kept.
    status, out = run("-p", "2", "--seeds", "3", "--werror", "-j", "2", pid)
    kept = re.search(r"replay: bsp-check replay (\S+)", out)
    check(status == 1 and kept is not None and os.path.exists(os.path.join(own_folder, kept.group(1))),
          f"a session's failing first run, its trace: exit {status}: {out[-600:]}")

subprocess.run(["rm", "-rf", own_folder])
print("determinism test: ok" if not failures else f"{len(failures)} failures")
sys.exit(1 if failures else 0)
