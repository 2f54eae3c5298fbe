#!/usr/bin/env python3
"""Rule ids are written once, in include/bspcheck/rules.def: the code names a rule by its
enumerator (rule_id(Rule::bounds_put)) and its severity by the catalogue (rule_severity), never by
a string literal that could drift from the catalogue. Fails on a rule id in quotes in the code of
the library, the driver, the level-1 library or the benchmarks (comments aside). An id that is also
the key of an option ("timeout") is not looked for: the code names options by their keys.

Usage: rule_literals_test.py --bsp-check BSP-CHECK --root SOURCE_ROOT [--self-test]"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

from rule_catalogue import load_rules

FOLDERS = ("include", "runtime", "checker", "replay", "engine", "tools", "level1", "bench")
EXTENSIONS = (".c", ".cc", ".cpp", ".h", ".hpp", ".inc")  # rules.def is the catalogue itself
COMMENT = re.compile(r'//[^\n]*|/\*.*?\*/', re.S)
STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def literals(root, ids):
    found = []
    for folder in FOLDERS:
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if not name.endswith(EXTENSIONS):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    code = COMMENT.sub("", f.read())
                for m in STRING.finditer(code):
                    if m.group(1) in ids:
                        found.append(f"{os.path.relpath(path, root)}: \"{m.group(1)}\"")
    return found


def self_test(ids):
    rule = sorted(ids)[0]
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "checker"))
        with open(os.path.join(root, "checker", "clean.cpp"), "w") as f:
            f.write(f'// "{rule}" in a comment\n/* "{rule}" */\nauto r = rule_id(Rule::x);\n')
        if literals(root, ids):
            return f"a comment counted: {literals(root, ids)}"
        with open(os.path.join(root, "checker", "planted.cpp"), "w") as f:
            f.write(f'Finding f{{"{rule}", Severity::warning}};\n')
        if not literals(root, ids):
            return "a planted literal was not found"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bsp-check", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    options = json.loads(subprocess.run([a.bsp_check, "--list-options", "--json"], stdin=subprocess.DEVNULL,
                                        capture_output=True, text=True, timeout=60, check=True).stdout)
    ids = {r["id"] for r in load_rules(a.bsp_check)} - {o["key"] for o in options}
    if a.self_test:
        why = self_test(ids)
        if why:
            print("FAIL: self-test:", why)
            return 1
    found = literals(a.root, ids)
    for f in found:
        print("FAIL: a rule id as a string literal (use rule_id(Rule::...) and rule_severity):", f)
    if not found:
        print(f"rule literals test: ok ({len(ids)} rule ids, none written outside rules.def)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
