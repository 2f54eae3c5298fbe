#!/usr/bin/env python3
"""Code a reader can hold in mind: no source file over 600 lines, no function over 100 lines
(docs/architecture.md, "Sizes"), except those listed below, each with its reason.

Functions are found by universal-ctags (Debian: universal-ctags), which parses C and C++ without
compiling them and gives each function's first and last line. A listed exception that no longer
needs its place fails the check too, so that the list only shrinks.

Usage: check_sizes.py [SOURCE_ROOT]      exit 1 on a file or function over its limit
       check_sizes.py --self-test        plants an oversized file and function and checks they are caught
"""
import json
import os
import subprocess
import sys
import tempfile

FOLDERS = ["include", "runtime", "level1", "checker", "replay", "engine", "tools"]
EXTENSIONS = (".c", ".cc", ".cpp", ".h", ".hpp")
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 100

# path -> reason. Each is a file still to be split, and says how.
FILE_EXCEPTIONS = {
    "runtime/isolation/process_snapshot.cpp": "the /proc readers move to proc_self.cpp, the vault and "
                                              "the shelf to snapshot_vault.cpp",
    "engine/host/program_mode.cpp": "its 26 file-scope variables become one ProgramSession first; then "
                                    "report, signals and begin/end move to files of their own",
}
# "path:function" -> reason.
FUNCTION_EXCEPTIONS = {
    "runtime/isolation/process_snapshot.cpp:take": "the planning of what to save moves out, as the "
                                                   "restore's planning did (plan_from_maps)",
    "engine/host/program_mode.cpp:begin_program": "goes with the file's split (FILE_EXCEPTIONS)",
}


def ctags_functions(root, paths):
    """(path, name, first line, last line) of every function defined in the files."""
    if not paths:
        return []
    out = subprocess.run(["ctags", "--output-format=json", "--fields=+ne", "--kinds-C++=f", "--kinds-C=f",
                          "-f", "-"] + paths, cwd=root, capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        if not line.startswith("{"):
            continue
        tag = json.loads(line)
        if tag.get("_type") == "tag" and "end" in tag:
            rows.append((tag["path"], tag["name"], tag["line"], tag["end"]))
    return rows


def sources(root):
    found = []
    for folder in FOLDERS:
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if name.endswith(EXTENSIONS):
                    found.append(os.path.relpath(os.path.join(dirpath, name), root))
    return sorted(found)


def violations(root, file_exceptions, function_exceptions):
    bad, used = [], set()
    paths = sources(root)
    for rel in paths:
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            n = sum(1 for _ in f)
        if n > MAX_FILE_LINES:
            if rel in file_exceptions:
                used.add(rel)
            else:
                bad.append(f"{rel}: {n} lines (at most {MAX_FILE_LINES})")
    for rel, name, first, last in ctags_functions(root, paths):
        n = last - first + 1
        if n <= MAX_FUNCTION_LINES:
            continue
        key = f"{rel}:{name}"
        if key in function_exceptions:
            used.add(key)
        else:
            bad.append(f"{rel}:{first}: {name} is {n} lines (at most {MAX_FUNCTION_LINES})")
    for key in sorted(set(file_exceptions) | set(function_exceptions)):
        if key not in used:
            bad.append(f"{key}: listed as an exception, but within the limit now (or gone): take it off the list")
    return bad


def self_test():
    body = "".join(f"  x += {i};\n" for i in range(MAX_FUNCTION_LINES))
    files = {
        "engine/core/long_function.cpp": "int long_function(int x) {\n" + body + "  return x;\n}\n",
        "runtime/base/long_file.hpp": "// filler\n" * (MAX_FILE_LINES + 1),
        "tools/cli/fine.cpp": "int fine(int x) {\n  return x;\n}\n",
    }
    with tempfile.TemporaryDirectory() as root:
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        found = violations(root, {"tools/cli/fine.cpp": "stale"}, {})
        expected = ["engine/core/long_function.cpp:1: long_function", "runtime/base/long_file.hpp:",
                    "tools/cli/fine.cpp: listed as an exception"]
        missing = [e for e in expected if not any(v.startswith(e) for v in found)]
        if missing or len(found) != len(expected):
            print("FAIL: self-test: expected", expected, "found", found)
            return False
    return True


def main(argv):
    args = argv[1:]
    if args[:1] == ["--self-test"]:
        if not self_test():
            return 1
        print("sizes self-test: ok")
        args = args[1:]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    bad = violations(root, FILE_EXCEPTIONS, FUNCTION_EXCEPTIONS)
    for b in bad:
        print("FAIL:", b)
    if not bad:
        print(f"sizes: ok (files <= {MAX_FILE_LINES} lines, functions <= {MAX_FUNCTION_LINES}; "
              f"{len(FILE_EXCEPTIONS) + len(FUNCTION_EXCEPTIONS)} listed exceptions)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
