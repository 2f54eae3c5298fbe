#!/usr/bin/env python3
"""A fuzz target for bsp-check's command line (issue 12), next to the trace and BSPCHECK_OPTIONS
fuzzers: random command lines made of the driver's own subcommands and options (read from its
--help) with hostile values, run against a real program and against files that are not what they
claim. Whatever the line, the driver

  - ends by itself or on one SIGINT (no hang, no second signal needed),
  - exits 0, 1 or 2, or 130 after the SIGINT; never dies of a signal or an abort,
  - prints exactly one line on standard error when it exits 2 (bad usage), starting "bsp-check",
  - prints no C++ exception, assertion, sanitizer report or CLI11 help dump,
  - leaves no process and no temporary file behind.

The lines are drawn from a fixed seed (argv[4], default 1), so a failure is reproduced by the
same call; each failing line is printed in full.

Usage: cli_fuzz_test.py BSP-CHECK BSPCC CFLAGS [SEED] [COUNT]
"""
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

bspcheck, bspcc, cflags = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
count = int(sys.argv[5]) if len(sys.argv) > 5 else 240
here = os.path.dirname(os.path.abspath(__file__))

work = tempfile.mkdtemp(prefix="cli-fuzz-")
tmp = os.path.join(work, "tmp")
os.makedirs(tmp)
env = dict(os.environ, TMPDIR=tmp)
env.pop("BSPCHECK_OPTIONS", None)

prog = os.path.join(work, "first_line")
subprocess.run([bspcc, *cflags.split(), os.path.join(here, "programs", "first_line.c"), "-o", prog], check=True)

# Files of every kind an option or an operand may name.
files = {}
def make(name, data):
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.write(data)
    files[name] = path
make("empty", b"")
make("garbage.trace", bytes(random.Random(seed).getrandbits(8) for _ in range(300)))
make("text.trace", b"bsp-check trace 1\nnot really\n")
make("bad.json", b'{"format": "bsp-check-runs", "runs": [1, 2')
make("bad.supp", b"put-collision x.c:99999999999999999999\nbogus-rule\n")
good_trace = os.path.join(work, "good.trace")
subprocess.run([bspcheck, "run", "-p", "2", "--seed", "1", "--trace", good_trace, prog],
               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
good_json = os.path.join(work, "good.json")
subprocess.run([bspcheck, "run", "-p", "2", "--seeds", "2", "--json", good_json, prog],
               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)

# Every input as it was: an option may name one as its output (--json garbage.trace), and the next
# line must find it again.
originals = {path: (open(path, "rb").read(), os.stat(path).st_mode)
             for path in list(files.values()) + [good_trace, good_json, prog]}

def restore_inputs():
    for path, (data, mode) in originals.items():
        try:
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as f:
                    if f.read() == data:
                        continue
        except OSError:
            pass
        subprocess.run(["rm", "-rf", path])
        with open(path, "wb") as f:
            f.write(data)
        os.chmod(path, mode)

def options_of(sub):
    """The options a subcommand's --help names (e.g. ['-p', '--seeds', ...])."""
    out = subprocess.run([bspcheck, *([sub] if sub else []), "--help"], env=env,
                         capture_output=True, text=True).stdout
    return sorted(set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", out)) - {"--help", "-h"})

subcommands = ["run", "replay", "shrink", "show", "explore", "merge", "stats", ""]
options = {sub: options_of(sub) for sub in subcommands}
assert len(options["run"]) >= 10, options["run"]  # the help really was read

hostile_values = [
    "-1", "0", "1", "2", "3", "99999999999999999999", "18446744073709551615", "1e400", "nan",
    "inf", "-0", "0x10", "1x", "", " ", "abc", "3/2", "0/0", "1/0", "2/1", "1,2,3", "1..4",
    "4..1", "1-3", "16k", "1024m", "99999999999g", "%s%n", "\u00e9", "-", "--", "=", "a:b",
    "/dev/null", "/dev/zero", "/", work, os.path.join(work, "no", "such", "x"),
]
file_values = list(files.values()) + [good_trace, good_json, prog]

# Values that an option accepts, so that most lines get past the parser and into the checks that
# follow it (files, combinations, runs); the rest take hostile values.
plausible = {
    "-p": ["1", "2", "1-3", "2,4", "3"], "--seeds": ["1", "2", "3"], "--seed": ["0", "5", "123"],
    "--strategy": ["random", "pct", "bounded", "coverage"], "--timeout": ["5", "0.5"],
    "--stack-size": ["64k", "1m"], "--shard": ["0/2", "1/2"], "--bound": ["0", "1"],
    "--max-runs": ["3", "10"], "--max-schedules": ["3"], "-j": ["1", "2"], "--jobs": ["1", "2"],
    "--json": [os.path.join(work, "out.json")], "--sarif": [os.path.join(work, "out.sarif")],
    "--junit": [os.path.join(work, "out.xml")], "--trace-dir": [work], "--prefix": ["[%p] "],
    "--trace": [os.path.join(work, "out.trace")], "-o": [os.path.join(work, "min.trace")],
    "--output": [os.path.join(work, "min.trace")], "--disable": ["put-collision", "abort"],
    "--source-root": [work],
}

def value(rng, opt):
    if opt in plausible and rng.random() < 0.6:
        return rng.choice(plausible[opt])
    return rng.choice(hostile_values + file_values)

def command_line(rng):
    sub = rng.choice(subcommands + ["bogus", "--list-rules", "--list-options", "--version"])
    argv = [sub] if sub else []
    opts = options.get(sub, [])
    for _ in range(rng.randint(0, 3)):
        if opts and rng.random() < 0.8:
            opt = rng.choice(opts)
            argv.append(opt)
            if rng.random() < 0.85:
                argv.append(value(rng, opt))
        elif rng.random() < 0.3:
            argv.append(rng.choice(["--bogus", "-z", "--", "--json", "-p"]))
    # Keep the runs that do start short: they still go through every check on the way.
    if sub in ("run", "") and rng.random() < 0.7:
        argv += ["--seeds", str(rng.randint(1, 3))]
    if sub == "explore" and rng.random() < 0.7:
        argv += ["--max-runs", str(rng.randint(1, 5))]
    # The operand a subcommand expects, mostly; sometimes another file or a hostile value.
    expected = {"run": prog, "": prog, "explore": prog, "replay": good_trace, "shrink": good_trace,
                "show": good_trace, "merge": good_json, "stats": good_json}.get(sub)
    for _ in range(rng.choice([0, 1, 1, 1, 2])):
        if expected and rng.random() < 0.75:
            argv.append(expected)
        else:
            argv.append(rng.choice(file_values + hostile_values))
    return argv

failures = []
statuses = {}  # exit status -> command lines
rng = random.Random(seed)
bad_text = re.compile(r"terminate called|Assertion|AddressSanitizer|UndefinedBehaviorSanitizer|"
                      r"runtime error:|Segmentation|core dumped|what\(\):|Usage:.*\n.*Options:", re.S)
started = time.monotonic()
for i in range(count):
    argv = command_line(rng)
    cmd = [bspcheck, *argv]
    shown = " ".join(shlex.quote(a) for a in cmd)
    proc = subprocess.Popen(cmd, env=env, cwd=work, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    interrupted = False
    try:
        out, err = proc.communicate(timeout=8)
    except subprocess.TimeoutExpired:
        # A long run is allowed; one SIGINT must end it (and its children) within seconds.
        interrupted = True
        os.killpg(proc.pid, signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            failures.append(f"{shown}: still running 10 s after SIGINT")
            continue
    status = proc.returncode
    statuses[status] = statuses.get(status, 0) + 1
    err_text = err.decode("utf-8", "replace")
    # After the SIGINT: the driver's own 130, or the signal's default action (a short command that
    # installs no handler).
    allowed = {0, 1, 2} | ({130, -signal.SIGINT} if interrupted else set())
    if status not in allowed:
        failures.append(f"{shown}: exit status {status}\n{err_text[-600:]}")
    elif bad_text.search(err_text):
        failures.append(f"{shown}: stderr shows a crash or a help dump\n{err_text[-600:]}")
    elif status == 2 and not interrupted:
        lines = [l for l in err_text.splitlines() if l.strip()]
        if len(lines) != 1 or not lines[0].startswith("bsp-check"):
            failures.append(f"{shown}: bad usage must be one 'bsp-check...' line, got {len(lines)}:\n"
                            + "\n".join(lines[:5]))
    # Nothing of this run may outlive it.
    try:
        os.killpg(proc.pid, 0)
        time.sleep(0.5)
        os.killpg(proc.pid, 0)
        failures.append(f"{shown}: left processes behind")
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    left = os.listdir(tmp)
    if left:
        failures.append(f"{shown}: left temporary files {left}")
        for name in left:
            subprocess.run(["rm", "-rf", os.path.join(tmp, name)])
    restore_inputs()

subprocess.run(["rm", "-rf", work])
print(f"cli_fuzz: {count} command lines (seed {seed}) in {time.monotonic() - started:.0f} s, "
      f"{len(failures)} failed; exit statuses: {dict(sorted(statuses.items()))}")
# The lines must reach past the parser too, or the fuzz only tests refusals.
if count >= 50 and statuses.get(0, 0) + statuses.get(1, 0) < count // 10:
    failures.append(f"only {statuses.get(0, 0) + statuses.get(1, 0)} of {count} lines got past the option checks")
for f in failures[:20]:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
