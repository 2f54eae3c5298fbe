#!/usr/bin/env python3
"""Every rule of the catalogue that is not marked reserved is raised by some test (stdlib only).

A rule counts as raised when a test asserts that it fires: a test that runs a program or an SPMD
function and fails unless a finding of the rule is reported. The test sources under tests/ are
scanned for these forms of assertion (each is how one kind of test in this repository asserts a
rule; a new kind of test adds its form to ASSERTIONS):

  checks      tests/checks/CMakeLists.txt   bspcheck_rule_test(<id> ...)   -> checks.<id>.fires
  asan        tests/asan/CMakeLists.txt     foreach(name <id_with_underscores> ...) followed by
                                            add_test(NAME asan.${rule} ...) (ASan builds)
  output      tests/**/*.py, *.sh           "error[<id>]" in ... / "warning[<id>]" in ...
                                            or re.search(r"error\[<id>\]...", ...)
                                            (the printed finding is required, not excluded)
  unit count  tests/**/*.cpp                EXPECT_/ASSERT_ EQ|GE (x.count("<id>"), N) with N >= 1
  unit find   tests/**/*.cpp                find(r, "<id>") then ASSERT_NE(f, nullptr)

Fails when a rule that is not reserved has no such assertion, and when a reserved rule has one
(it is raised: drop its reserved mark). --self-test checks that both mistakes are detected.
"""

import argparse
import glob
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from rule_catalogue import load_rules  # noqa: E402


def files(tests, pattern):
    return sorted(glob.glob(os.path.join(tests, pattern), recursive=True))


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def rel(path, tests):
    return os.path.relpath(path, os.path.dirname(os.path.abspath(tests)))


def checks_form(tests):
    for path in files(tests, "checks/CMakeLists.txt"):
        for m in re.finditer(r"^\s*bspcheck_rule_test\(\s*([a-z0-9-]+)\s", read(path), re.M):
            yield m.group(1), rel(path, tests)


def asan_form(tests):
    loop = re.compile(r"foreach\(name ([a-z0-9_ ]+)\)\s*string\(REPLACE \"_\" \"-\" rule \$\{name\}\)\s*"
                      r"add_test\(NAME asan\.\$\{rule\}")
    for path in files(tests, "asan/CMakeLists.txt"):
        for m in loop.finditer(read(path)):
            for name in m.group(1).split():
                yield name.replace("_", "-"), rel(path, tests)


def output_form(tests):
    printed = re.compile(r"b?[\"'](?:error|warning)\[([a-z0-9-]+)\][\"']\s+in\b"
                         r"|re\.search\(r[\"'](?:error|warning)\\\[([a-z0-9-]+)\\\]")
    for path in files(tests, "**/*.py") + files(tests, "**/*.sh"):
        if os.path.abspath(path).startswith(os.path.abspath(os.path.dirname(__file__))):
            continue  # this folder's own tests name rules without asserting them
        for m in printed.finditer(read(path)):
            yield m.group(1) or m.group(2), rel(path, tests)


def unit_forms(tests):
    count = re.compile(r"(?:EXPECT|ASSERT)_(?:EQ|GE)\(\s*\w+\.count\(\"([a-z0-9-]+)\"\),\s*([0-9]+)u?\s*\)")
    found = re.compile(r"find\(\s*\w+,\s*\"([a-z0-9-]+)\"\);\s*\n\s*ASSERT_NE\(\s*\w+,\s*nullptr\s*\)")
    for path in files(tests, "**/*.cpp"):
        text = read(path)
        for m in count.finditer(text):
            if int(m.group(2)) >= 1:
                yield m.group(1), rel(path, tests)
        for m in found.finditer(text):
            yield m.group(1), rel(path, tests)


ASSERTIONS = [checks_form, asan_form, output_form, unit_forms]


def raised_by_tests(tests):
    """{rule id: [files asserting that it fires]}."""
    raised = {}
    for form in ASSERTIONS:
        for rule, where in form(tests):
            raised.setdefault(rule, [])
            if where not in raised[rule]:
                raised[rule].append(where)
    return raised


def problems(rules, raised):
    found = []
    for r in rules:
        if r["reserved"] and r["id"] in raised:
            found.append(f"{r['id']} is marked reserved but {', '.join(raised[r['id']])} assert(s) that it "
                         "fires: drop the mark in include/bspcheck/rules.def")
        if not r["reserved"] and r["id"] not in raised:
            found.append(f"{r['id']} is not marked reserved but no test asserts that it fires: add a test "
                         "(e.g. examples/checks/<rule>.c and bspcheck_rule_test) or mark it reserved")
    return found


def self_test(rules, raised):
    missed = []
    unraised = rules + [{"id": "no-test-raises-this", "reserved": False}]
    if not any("no-test-raises-this" in p for p in problems(unraised, raised)):
        missed.append("a rule without a test")
    active = next((r for r in rules if not r["reserved"]), None)
    if active is None or not problems([dict(active, reserved=True)], raised):
        missed.append("a raised rule marked reserved")
    if len(raised) < 3:
        missed.append(f"the scan itself (it found assertions of only {len(raised)} rule(s))")
    return [f"self-test: {what} is not detected" for what in missed]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bsp-check", required=True)
    ap.add_argument("--tests", required=True, help="the tests/ folder of the source tree")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    rules = load_rules(args.bsp_check)
    raised = raised_by_tests(args.tests)
    found = problems(rules, raised)
    if args.self_test:
        found += self_test(rules, raised)
    for p in found:
        print(f"FAIL: {p}")
    for r in rules:
        print(f"  {r['id']:22} {'reserved' if r['reserved'] else ', '.join(raised.get(r['id'], ['-']))}")
    if found:
        return 1
    print(f"ok: every rule not marked reserved ({sum(not r['reserved'] for r in rules)}) is raised by a test")
    return 0


if __name__ == "__main__":
    sys.exit(main())
