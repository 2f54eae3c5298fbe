"""Shared by the gdb tests of tests/debug: build finding_between_processes.c, record its trace,
and run `bsp-check debug` on it with gdb in batch mode, cutting gdb's output into one piece per
command. Usage of every test: TEST.py BSP-CHECK BSPCC CFLAGS."""

import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "finding_between_processes.c")
MARK = "@@bsp-test@@"


def temp_dir():
    """A folder for one test's program and trace, removed when the test ends."""
    d = tempfile.mkdtemp(prefix="bspcheck-debug-test-")
    atexit.register(shutil.rmtree, d, True)
    return d


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def skip_unless_gdb_runs():
    """Exit 77 (ctest: skipped) where gdb cannot trace a process, a failure when CI=true."""
    why = None
    try:
        r = subprocess.run(["gdb", "-q", "-batch", "-ex", "run", "--args", "/bin/true"],
                           capture_output=True, text=True, timeout=60)
        out = r.stdout + r.stderr
        if r.returncode != 0 or "exited normally" not in out:
            why = "gdb cannot run a program here: " + out.strip().splitlines()[-1] if out.strip() else "no output"
    except FileNotFoundError:
        why = "no gdb on the PATH (scripts/setup.sh installs it)"
    if why:
        if os.environ.get("CI") == "true":
            fail(why + " (CI=true: the debug tests must run)")
        print("SKIP: " + why)
        sys.exit(77)


def build_example(relative_source):
    """For the tests that take an example of the project (usage TEST.py BSP-CHECK BSPCC CFLAGS):
    skips where gdb cannot run, builds examples/<relative_source> with -g -O0 into a fresh folder;
    returns (bsp-check, the folder, the program, the source)."""
    bsp_check, bspcc = sys.argv[1], sys.argv[2]
    cflags = sys.argv[3].split() if len(sys.argv) > 3 else []
    skip_unless_gdb_runs()
    work = temp_dir()
    source = os.path.join(HERE, "..", "..", "examples", relative_source)
    prog = os.path.join(work, os.path.splitext(os.path.basename(source))[0])
    subprocess.run([bspcc, "-g", "-O0", *cflags, source, "-o", prog], check=True)
    return bsp_check, work, prog, source


def tag_line(tag):
    """The line of finding_between_processes.c marked TAG:<tag>."""
    with open(SOURCE) as f:
        for n, line in enumerate(f, 1):
            if "TAG:" + tag + ":" in line or line.rstrip().endswith("TAG:" + tag + " */"):
                return n
    raise AssertionError("no line tagged " + tag)


class Session:
    def __init__(self):
        if len(sys.argv) < 3:
            print(__doc__)
            sys.exit(2)
        self.bsp_check, self.bspcc = sys.argv[1], sys.argv[2]
        self.cflags = sys.argv[3].split() if len(sys.argv) > 3 else []
        skip_unless_gdb_runs()
        self.dir = temp_dir()
        self.prog = os.path.join(self.dir, "finding_between_processes")
        subprocess.run([self.bspcc, "-g", "-O0", *self.cflags, SOURCE, "-o", self.prog], check=True)
        self.trace = os.path.join(self.dir, "run.trace")
        r = subprocess.run([self.bsp_check, "run", "-p", "2", "--seed", "1", "--trace", self.trace, self.prog],
                           capture_output=True, text=True, cwd=self.dir)
        if r.returncode != 1 or "bounds-put" not in r.stdout + r.stderr:
            fail("the recorded run should fail with bounds-put (exit %d):\n%s%s" % (r.returncode, r.stdout, r.stderr))

    def gdb(self, commands, direct_with=None, debug_options=()):
        """Runs `bsp-check debug` in batch mode with these commands; returns [output before the first
        command, output of each command]. direct_with: gdb itself, with these options before the
        commands, on the program with the replay in BSPCHECK_OPTIONS (as a user would run it)."""
        if direct_with is None:
            args = [self.bsp_check, "debug", *debug_options, self.trace, "--", "-batch", "-nx"]
        else:
            args = ["gdb", "-q", "-batch", "-nx", *direct_with]
        for c in commands:
            args += ["-ex", "echo %s\\n" % MARK, "-ex", c]
        if direct_with is not None:
            args += [self.prog]
        env = dict(os.environ)
        if direct_with is not None:
            env["BSPCHECK_OPTIONS"] = "procs=2:seed=1:replay=" + self.trace
        # LeakSanitizer cannot stop the world under ptrace; the program does not reach its end here.
        env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
        # One stream, so that gdb's warnings and the program's findings stay in order with the marks.
        r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=self.dir,
                           env=env, timeout=240)
        out = r.stdout
        self.transcript = out
        pieces = out.split(MARK + "\n")
        if len(pieces) != len(commands) + 1:
            fail("gdb did not run every command (exit %d):\n%s" % (r.returncode, out))
        return pieces


def program_line(text):
    """The line of finding_between_processes.c that a frame of main shows, or None."""
    m = re.search(r"main \(\) at \S*finding_between_processes\.c:(\d+)", text)
    return int(m.group(1)) if m else None


def info_rows(text):
    """info bsp's rows: pid -> (state, superstep, call, line)."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^[* ] (\d+)\s+(.+?)\s{2,}(\d+)\s+(\S+)\s+\S*:(\d+)\s*$", line)
        if m:
            rows[int(m.group(1))] = (m.group(2).strip(), int(m.group(3)), m.group(4), int(m.group(5)))
    return rows


def printed_value(text):
    m = re.search(r"\$\d+ = (-?\d+)", text)
    return int(m.group(1)) if m else None


def plain_gdb(source, options, commands, lib_dir, cflags):
    """Builds tests/debug/SOURCE and runs it under a plain gdb (the extension auto-loaded from
    beside the library in lib_dir) with BSPCHECK_OPTIONS=options; returns (the output before the
    first command, the output of each command)."""
    skip_unless_gdb_runs()
    work = temp_dir()
    prog = os.path.join(work, os.path.splitext(os.path.basename(source))[0])
    subprocess.run([sys.argv[2], "-g", "-O0", *cflags, os.path.join(HERE, source), "-o", prog], check=True)
    env = dict(os.environ, BSPCHECK_OPTIONS=options)
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
    args = ["gdb", "-q", "-batch", "-nx", "-iex", "add-auto-load-safe-path " + lib_dir]
    for c in commands:
        args += ["-ex", "echo %s\\n" % MARK, "-ex", c]
    r = subprocess.run(args + [prog], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                       timeout=240)
    pieces = r.stdout.split(MARK + "\n")
    if len(pieces) != len(commands) + 1:
        fail("gdb did not run every command (exit %d):\n%s" % (r.returncode, r.stdout))
    return pieces
