#!/usr/bin/env python3
"""The include graph of bsp-check's folders is a tree of layers (docs/architecture.md): a file may
include its own folder and the layers below it, never a layer above or beside it.

    include/bspcheck   the public C and C++ API
    runtime            the kernel: contexts, stacks, schedulers, options, per-process globals
    checker, replay    the rules and findings; traces and the schedulers that read them
    engine             the World that wires them, and the C API, program mode, in-process runs
    tools              the bsp-check driver and its commands

Usage: check_layers.py SOURCE_ROOT. Prints each include that points up or sideways; exit 1 if any.
"""
import os
import re
import sys

LAYER = {"bspcheck": 0, "runtime": 1, "checker": 2, "replay": 2, "engine": 3, "tools": 4}
INCLUDE = re.compile(r'^\s*#\s*include\s+[<"]([a-z0-9_]+)/[^">]+[">]', re.M)


def main(root):
    bad = []
    for folder, level in LAYER.items():
        base = os.path.join(root, "include", folder) if folder == "bspcheck" else os.path.join(root, folder)
        for dirpath, _, files in os.walk(base):
            for name in files:
                if not name.endswith((".cpp", ".hpp", ".h", ".def", ".inc")):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for target in INCLUDE.findall(text):
                    if target not in LAYER or target == folder:
                        continue
                    if LAYER[target] >= level:
                        bad.append(f"{os.path.relpath(path, root)} includes {target}/ "
                                   f"(layer {LAYER[target]}, not below {folder}'s {level})")
    for b in bad:
        print("FAIL:", b)
    if not bad:
        print(f"layers: ok ({len(LAYER)} folders)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")))
