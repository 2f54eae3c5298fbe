"""bsp-check run --debug: the first failing run's kept trace opens in gdb, stopped at its first
finding in the right process. `--debug` passes no options to gdb, so BSPCHECK_GDB names a wrapper
that adds -batch and `info bsp` after bsp-check's own commands (before --args): gdb's standard
input is the driver's, which the runs were given."""
import os
import stat
import subprocess

import debuglib

s = debuglib.Session()
wrapper = os.path.join(s.dir, "gdb-batch")
with open(wrapper, "w") as f:
    f.write('#!/bin/sh\n'
            '# gdb with -batch and `info bsp` inserted before --args\n'
            'for a in "$@"; do\n'
            '  shift\n'
            '  if [ "$a" = --args ]; then set -- "$@" -batch -nx -ex "info bsp"; fi\n'
            '  set -- "$@" "$a"\n'
            'done\n'
            'exec gdb "$@"\n')
os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IXUSR)
env = dict(os.environ, BSPCHECK_GDB=wrapper)
env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
r = subprocess.run([s.bsp_check, "run", "-p", "2", "--seed", "1", "--debug", s.prog], stdin=subprocess.DEVNULL,
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=s.dir, env=env, timeout=240)
out = r.stdout
kept = os.path.join(".", "finding_between_processes-p2-s1.trace")
if "--debug: bsp-check debug " + kept not in out:
    debuglib.fail("run --debug did not open the kept trace:\n" + out)
if "bsp-check finding [bounds-put]" not in out or "[bsp process 1, superstep 3]" not in out:
    debuglib.fail("gdb did not stop at the finding in process 1:\n" + out)
rows = debuglib.info_rows(out)
if sorted(rows) != [0, 1] or rows[1][0] != "running":
    debuglib.fail("info bsp did not list the processes:\n" + out)
print("run --debug: ok")
