#!/usr/bin/env python3
"""The include graph of bsp-check's folders is a tree of layers (docs/architecture.md): a file may
include its own folder and the layers below it, never a layer above or beside it.

    0  include      the public C and C++ API: bsp.h, mcbsp.h, ... and include/bspcheck/
    1  runtime      the kernel: contexts, stacks, schedulers, options, per-process globals
    1  level1       the level-1 collectives, built on the 20 primitives of include/ only
    2  checker      the rules and findings
    2  replay       traces and the schedulers that read them
    3  engine       the World that wires them, and the C API, program mode, in-process runs
    4  tools        the bsp-check driver and its commands
    5  bench        benchmarks (may include any layer; no layer includes them)

Every include is resolved as the compiler would find it: next to the including file first (so
"../engine/core/world.hpp" and "world.hpp" count), then from the source root and from include/ (the
include paths of every target); what resolves to no file of the tree (system and third-party
headers) is not checked. Every C and C++ file of these folders is read (.c .cc .cpp .h .hpp .def .inc).

Usage: check_layers.py [SOURCE_ROOT]   prints each include that points up or sideways; exit 1 if any
       check_layers.py --self-test     plants violations in a scratch tree and checks they are caught
"""
import os
import re
import sys
import tempfile

LAYER = {"include": 0, "runtime": 1, "level1": 1, "checker": 2, "replay": 2, "engine": 3, "tools": 4, "bench": 5}
EXTENSIONS = (".c", ".cc", ".cpp", ".h", ".hpp", ".def", ".inc")
INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^">]+)[">]', re.M)


def folder_of(root, path):
    """The layer folder a path of the tree lies in, or None."""
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(root))
    top = rel.split(os.sep)[0]
    return top if top in LAYER and not rel.startswith("..") else None


def resolve(root, including, target, quoted):
    """The file an include names, as the compiler searches: the includer's folder (quoted
    includes), then the source root and include/. None when it is not a file of the tree."""
    candidates = [os.path.join(os.path.dirname(including), target)] if quoted else []
    candidates += [os.path.join(root, target), os.path.join(root, "include", target)]
    for c in candidates:
        if os.path.isfile(c):
            return os.path.normpath(c)
    return None


def violations(root):
    bad = []
    for folder, level in LAYER.items():
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if not name.endswith(EXTENSIONS):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for delim, target in INCLUDE.findall(text):
                    found = resolve(root, path, target, delim == '"')
                    other = folder_of(root, found) if found else None
                    if other is None or other == folder:
                        continue
                    if LAYER[other] >= level:
                        bad.append(f"{os.path.relpath(path, root)} includes {target} ({other}/, layer "
                                   f"{LAYER[other]}, not below {folder}/'s {level})")
    return bad


def self_test():
    """Each planted include must be caught, and a tree without them must pass."""
    planted = {
        "checker/relative.cpp": '#include "../engine/core/world.hpp"\n',       # relative, up
        "include/top.h": '#include "engine/core/world.hpp"\n',                 # top-level include/*.h
        "level1/l1.c": '#include "runtime/options/options.hpp"\n',                # beside (level1 and runtime)
        "runtime/uses_bench.cpp": '#include "bench/bench_util.hpp"\n',    # into bench
        "runtime/same_folder.c": '#include "../checker/checker.hpp"\n',  # a .c file
    }
    clean = {
        "engine/core/world.hpp": '#include "runtime/options/options.hpp"\n#include "checker/checker.hpp"\n#include <vector>\n',
        "engine/core/world.cpp": '#include "world.hpp"\n#include "../replay/trace.hpp"\n#include <bsp.h>\n',
        "runtime/options/options.hpp": '#include "bspcheck/bspcheck.hpp"\n',
        "checker/checker.hpp": '#include "runtime/options/options.hpp"\n',
        "replay/trace.hpp": '#include "runtime/options/options.hpp"\n',
        "include/bsp.h": "",
        "include/bspcheck/bspcheck.hpp": '#include "../bsp.h"\n',
        "bench/bench_util.hpp": '#include "engine/core/world.hpp"\n',
        "tools/main.cpp": '#include "engine/core/world.hpp"\n#include <nlohmann/json.hpp>\n',
    }
    failures = []
    with tempfile.TemporaryDirectory() as root:
        def write(files):
            for rel, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
                with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                    f.write(text)
        write(clean)
        if violations(root):
            failures.append(f"a clean tree fails: {violations(root)}")
        write(planted)
        found = violations(root)
        for rel in planted:
            if not any(v.startswith(rel + " ") for v in found):
                failures.append(f"not caught: {rel} ({planted[rel].strip()})")
        if len(found) != len(planted):
            failures.append(f"expected {len(planted)} violations, found {found}")
    for f in failures:
        print("FAIL: self-test:", f)
    return not failures


def main(argv):
    if argv[1:2] == ["--self-test"]:
        if not self_test():
            return 1
        print("layers self-test: ok")
        argv = argv[:1] + argv[2:]
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    bad = violations(root)
    for b in bad:
        print("FAIL:", b)
    if not bad:
        print(f"layers: ok ({len(LAYER)} folders)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
