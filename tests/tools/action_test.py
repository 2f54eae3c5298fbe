#!/usr/bin/env python3
"""action_test.py: runs the steps of action.yml (the GitHub Actions composite action) locally, as a
runner would, and checks what they do.

  action_test.py SOURCE_DIR BUILD_DIR           bsp-check, bspcc from BUILD_DIR on PATH
  action_test.py SOURCE_DIR --deb PACKAGE.deb   the install step installs PACKAGE with apt
                                                (CI only: tests/tools/package_test.sh)

First yamllint (strict) and the checks a runner makes only when the action is used: a composite
action, every run step with a shell, every ${{ inputs.x }} and ${{ steps.id... }} naming a declared
input or an earlier step, and no expression spliced into a script (inputs reach scripts through
env). Then two runs of the steps: a ring program built by the `build` input, which passes, and a
program that writes past a registered area, whose run step must fail with the uploads still
given the SARIF (holding the finding) and the JUnit file. A `uses:` step (the upload actions) is
not run: the test checks that the files it would upload exist.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import yaml

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
REF = re.compile(r"\b(inputs\.[A-Za-z0-9_-]+|steps\.[A-Za-z0-9_-]+\.outputs\.[A-Za-z0-9_-]+|"
                 r"steps\.[A-Za-z0-9_-]+\.outcome|github\.action_path|runner\.temp)")

RING = r"""
#include <stdio.h>
#include "bsp.h"
int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), me = bsp_pid(), got = -1;
  bsp_push_reg(&got, sizeof got);
  bsp_sync();
  bsp_put((me + 1) % p, &me, &got, 0, sizeof me);
  bsp_sync();
  printf("%d got %d\n", me, got);
  bsp_pop_reg(&got);
  bsp_end();
  return 0;
}
"""
# Process 1 puts 8 bytes at offset 4 of a 4-byte area on process 0: bounds-put, an error.
OVERRUN = r"""
#include "bsp.h"
int main(void) {
  bsp_begin(bsp_nprocs());
  int x = 0, y[2] = {1, 2};
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  if (bsp_pid() == 1) bsp_put(0, y, &x, 4, sizeof y);
  bsp_sync();
  bsp_pop_reg(&x);
  bsp_end();
  return 0;
}
"""

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)
    return cond


def lint(action_file, action):
    r = subprocess.run(["yamllint", "-s", "-d", "{extends: default, rules: {line-length: {max: 130}, document-start: disable, "
                        "truthy: {check-keys: false}}}", action_file], capture_output=True, text=True)
    check(r.returncode == 0, "yamllint action.yml:\n" + r.stdout + r.stderr)
    runs = action.get("runs", {})
    check(runs.get("using") == "composite", "runs.using is not composite")
    inputs = action.get("inputs", {})
    for name, spec in inputs.items():
        check("description" in spec, f"input {name} has no description")
    seen_steps = set()
    for step in runs.get("steps", []):
        name = step.get("name", "?")
        check(("run" in step) != ("uses" in step), f"step {name}: exactly one of run and uses")
        if "run" in step:
            check(step.get("shell") == "bash", f"step {name}: a composite run step needs shell: bash")
            check(not EXPR.search(step["run"]), f"step {name}: an expression spliced into the script (use env)")
        text = yaml.safe_dump({k: v for k, v in step.items() if k != "id"})
        for ref in REF.findall(text):
            if ref.startswith("inputs."):
                check(ref.split(".", 1)[1] in inputs, f"step {name}: {ref} is not a declared input")
            elif ref.startswith("steps."):
                check(ref.split(".")[1] in seen_steps, f"step {name}: {ref} names no earlier step")
        if "id" in step:
            seen_steps.add(step["id"])
    for out, spec in action.get("outputs", {}).items():
        for ref in REF.findall(spec.get("value", "")):
            check(ref.split(".")[1] in seen_steps, f"output {out}: {ref} names no step")


class Runner:
    """The runner's part: expressions, the step conditions, GITHUB_OUTPUT and GITHUB_PATH."""

    def __init__(self, action, source_dir, inputs, path, temp):
        self.action, self.temp = action, temp
        self.inputs = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
        self.inputs.update(inputs)
        self.context = {"github.action_path": source_dir, "runner.temp": temp}
        self.steps = {}
        self.path = path
        self.failed = False
        self.uploads = []  # (uses, with) of the steps that would run

    def value(self, ref):
        if ref.startswith("inputs."):
            return self.inputs[ref.split(".", 1)[1]]
        if ref.startswith("steps."):
            parts = ref.split(".")
            step = self.steps.get(parts[1], {"outputs": {}, "outcome": "skipped"})
            return step["outcome"] if parts[2] == "outcome" else step["outputs"].get(parts[3], "")
        return self.context[ref]

    def substitute(self, text):
        return EXPR.sub(lambda m: str(self.evaluate(m.group(1))), str(text))

    def evaluate(self, expr):
        # The few operators the action uses: ==, !=, &&, !, !cancelled(), string literals.
        py = REF.sub(lambda m: repr(self.value(m.group(0))), expr)
        py = py.replace("cancelled()", "False").replace("&&", " and ").replace("||", " or ")
        py = re.sub(r"!(?!=)", " not ", py)
        return eval(py, {"__builtins__": {}})  # noqa: S307 - the action's own conditions

    def should_run(self, step):
        cond = step.get("if")
        if cond is None:
            return not self.failed
        expr = EXPR.fullmatch(cond.strip())
        expr = expr.group(1) if expr else cond
        # Without a status function a condition is ANDed with success(), as on GitHub.
        ok = bool(self.evaluate(expr))
        return ok if "cancelled()" in expr or "always()" in expr else ok and not self.failed

    def run(self):
        for step in self.action["runs"]["steps"]:
            sid = step.get("id", "")
            if not self.should_run(step):
                if sid:
                    self.steps[sid] = {"outputs": {}, "outcome": "skipped"}
                continue
            if "uses" in step:
                self.uploads.append((step["uses"], {k: self.substitute(v) for k, v in step.get("with", {}).items()}))
                continue
            out_file = os.path.join(self.temp, "github_output")
            path_file = os.path.join(self.temp, "github_path")
            for f in (out_file, path_file):
                open(f, "w").close()
            env = dict(os.environ, PATH=self.path, RUNNER_TEMP=self.temp, GITHUB_OUTPUT=out_file, GITHUB_PATH=path_file)
            env.update({k: self.substitute(v) for k, v in step.get("env", {}).items()})
            cwd = self.substitute(step.get("working-directory", "."))
            # GitHub's bash: bash --noprofile --norc -eo pipefail {0}
            r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=cwd, env=env,
                               capture_output=True, text=True)
            sys.stdout.write(f"-- step {step['name']}: exit {r.returncode}\n{r.stdout}{r.stderr}")
            outputs = dict(line.split("=", 1) for line in open(out_file).read().splitlines() if "=" in line)
            self.path = ":".join([p for p in open(path_file).read().splitlines() if p] + [self.path])
            outcome = "success" if r.returncode == 0 else "failure"
            if sid:
                self.steps[sid] = {"outputs": outputs, "outcome": outcome}
            self.failed = self.failed or r.returncode != 0
        return not self.failed


def uploaded_files(runner):
    files = []
    for uses, with_ in runner.uploads:
        for key in ("sarif_file", "path"):
            files += [f for f in with_.get(key, "").splitlines() if f]
    return files


def main():
    source_dir = os.path.abspath(sys.argv[1])
    deb = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--deb" else ""
    build_dir = "" if deb else os.path.abspath(sys.argv[2])
    action_file = os.path.join(source_dir, "action.yml")
    action = yaml.safe_load(open(action_file))
    lint(action_file, action)

    base_path = os.environ["PATH"]
    if build_dir:  # the build tree's driver and wrappers, as an installed bsp-check would be on PATH
        base_path = os.pathsep.join([build_dir, os.path.join(build_dir, "tools"), base_path])
    with tempfile.TemporaryDirectory() as work:
        with open(os.path.join(work, "ring.c"), "w") as f:
            f.write(RING)
        with open(os.path.join(work, "overrun.c"), "w") as f:
            f.write(OVERRUN)
        temp = os.path.join(work, "runner temp")  # a space: every path in the steps is one word
        os.mkdir(temp)

        clean = Runner(action, source_dir, {"deb": deb, "build": "bspcc ring.c -o ring", "program": "./ring",
                                             "working-directory": work, "procs": "1-3", "seeds": "4",
                                             "sarif": "reports/ring.sarif", "junit": "reports/ring.xml"},
                       base_path, temp)
        os.mkdir(os.path.join(work, "reports"))
        check(clean.run(), "the clean program's steps failed")
        files = uploaded_files(clean)
        check(sorted(files) == sorted([os.path.join(work, "reports/ring.sarif")] * 2 + [os.path.join(work, "reports/ring.xml")]),
              f"the uploads name {files}")
        for f in files:
            check(os.path.isfile(f), f"{f} not written")
        if os.path.isfile(os.path.join(work, "reports/ring.xml")):
            cases = ET.parse(os.path.join(work, "reports/ring.xml")).getroot().iter("testcase")
            check(len(list(cases)) == 12, "the JUnit file does not hold 3 process counts x 4 seeds")

        # An error finding: the run step fails (the job fails), the uploads still run.
        buggy = Runner(action, source_dir, {"deb": "", "build": "bspcc overrun.c -o overrun", "program": "./overrun",
                                             "working-directory": work, "procs": "2", "seeds": "2", "upload-sarif": "true"},
                       clean.path, temp)
        check(not buggy.run(), "the steps passed on a program with an error finding")
        check(buggy.steps.get("run", {}).get("outcome") == "failure", "the run step did not fail")
        check(len(buggy.uploads) == 2, f"{len(buggy.uploads)} upload steps ran after the failure, not 2")
        sarif = os.path.join(work, "bsp-check.sarif")
        if check(os.path.isfile(sarif), "no SARIF after the failing run"):
            rules = {r.get("ruleId") for run in json.load(open(sarif))["runs"] for r in run.get("results", [])}
            check("bounds-put" in rules, f"the SARIF holds {rules}, not bounds-put")

        # An input is data: quotes and $(...) in `program` reach bsp-check as words, not as shell.
        marker = os.path.join(work, "injected")
        odd = Runner(action, source_dir, {"deb": "", "build": "", "program": f"./ring $(touch {marker})",
                                          "working-directory": work, "procs": "1", "seeds": "1", "artifact-name": "",
                                          "upload-sarif": "false"}, clean.path, temp)
        odd.run()
        check(not os.path.exists(marker), "the program input was run by the shell")
        check(odd.uploads == [], "uploads ran though upload-sarif is false and artifact-name empty")

    if failures:
        sys.exit(1)
    print("action test: ok")


if __name__ == "__main__":
    main()
