#!/usr/bin/env python3
"""bsp-check's folders are a tree of layers (docs/architecture.md): a file may use its own room and
the layers below it, never a layer above or beside it. Two kinds of use are checked: includes (in
the source tree) and calls at link time (in a build tree's objects).

    0  include      the public C and C++ API: bsp.h, mcbsp.h, ... and include/bspcheck/
    1  runtime      the kernel: contexts, stacks, schedulers, options, per-process globals
    1  level1       the level-1 collectives, built on the 20 primitives of include/ only
    2  checker      the rules and findings
    2  replay       traces and the schedulers that read them
    3  engine       the World that wires them, the front ends, cBSP and BSPk, the hosts
    3  mpi          the MPI back end: the same C API over MPI ranks (docs/mpi.md), beside the engine
    4  tools        the bsp-check driver and its commands
    5  bench        benchmarks (may include any layer; no layer includes them)

Four halls are divided into rooms, sub-folders that are layers of their own inside the hall
(SUBLAYER below): a file of a room uses its own room and the rooms on lower floors of its hall,
never a room above or beside it. Every source file of such a hall lies in one of its rooms.

Includes: each is resolved as the compiler would find it: next to the including file first (so
"../engine/core/world.hpp" and "world.hpp" count), then from the source root and from include/ (the
include paths of every target); what resolves to no file of the tree (system and third-party
headers) is not checked. Every C and C++ file of these folders is read (.c .cc .cpp .h .hpp .def .inc).

Links (--build DIR): a declaration in a lower layer's header, defined in a higher layer's source,
is a call up the layers that no include shows. The objects of each target of the build
(compile_commands.json names each source's object) are read with `nm`: a symbol that one object
uses and another object of the same target defines (strongly: weak and inline copies are made
wherever they are used) must be defined in the user's own room or below it. The C and C++ library
functions the runtime interposes (fclose, free, mmap, __cxa_throw, ...) are calls to those
libraries, not to the room that wraps them, and are not checked.

Usage: check_layers.py [--self-test] [--build BUILD_DIR] [SOURCE_ROOT]
       prints each include (and, with --build, each link) that points up or sideways; exit 1 if any;
       --self-test first plants a violation of each kind in a scratch tree and checks it is caught
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

LAYER = {"include": 0, "runtime": 1, "level1": 1, "checker": 2, "replay": 2, "engine": 3, "mpi": 3, "tools": 4,
         "bench": 5}
# The rooms of the divided halls, by floor (docs/architecture.md, "Layers").
SUBLAYER = {
    "engine": {"core": 0, "host": 1, "frontends": 2, "systems": 3},
    "mpi": {"transport": 0, "report": 0, "registration": 1, "messages": 1, "api": 2},
    "runtime": {"base": 0, "options": 1, "executable": 1, "fibers": 1, "memory_checks": 1,
                "scheduling": 2, "isolation": 2},
    "tools": {"cli": 0, "launch": 1, "reports": 2, "across_runs": 3, "commands": 4},
}
EXTENSIONS = (".c", ".cc", ".cpp", ".h", ".hpp", ".def", ".inc")
INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^">]+)[">]', re.M)


def place_of(root, path):
    """(hall, room) of a path of the tree: room is None in an undivided folder, "" for a file lying
    directly in a divided hall. None outside the layer folders."""
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(root))
    parts = rel.split(os.sep)
    if rel.startswith("..") or parts[0] not in LAYER:
        return None
    if parts[0] not in SUBLAYER:
        return parts[0], None
    return parts[0], parts[1] if len(parts) > 2 else ""


def points_wrong(user, used):
    """Why `user`'s use of `used` (both places) goes up or sideways, or None when it goes down."""
    (hall, room), (other, other_room) = user, used
    if other != hall:
        if LAYER[other] >= LAYER[hall]:
            return f"{other}/, layer {LAYER[other]}, not below {hall}/'s {LAYER[hall]}"
        return None
    if room is None or other_room == room:
        return None
    floors = SUBLAYER[hall]
    if floors.get(other_room, -1) >= floors.get(room, -1):
        return (f"{hall}/{other_room}/, floor {floors.get(other_room)}, not below {hall}/{room}/'s "
                f"floor {floors.get(room)}")
    return None


def resolve(root, including, target, quoted):
    """The file an include names, as the compiler searches: the includer's folder (quoted
    includes), then the source root and include/. None when it is not a file of the tree."""
    candidates = [os.path.join(os.path.dirname(including), target)] if quoted else []
    candidates += [os.path.join(root, target), os.path.join(root, "include", target)]
    for c in candidates:
        if os.path.isfile(c):
            return os.path.normpath(c)
    return None


def include_violations(root):
    bad = []
    for folder in LAYER:
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if not name.endswith(EXTENSIONS):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                user = place_of(root, path)
                if user[1] == "" or (user[1] and user[1] not in SUBLAYER[user[0]]):
                    bad.append(f"{rel} lies in no room of {user[0]}/ ({', '.join(SUBLAYER[user[0]])})")
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for delim, target in INCLUDE.findall(text):
                    found = resolve(root, path, target, delim == '"')
                    used = place_of(root, found) if found else None
                    why = points_wrong(user, used) if used else None
                    if why:
                        bad.append(f"{rel} includes {target} ({why})")
    return bad


def symbols(obj):
    """(defined, used) global symbols of an object file; defined counts strong definitions only."""
    out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind == "U":
            used.add(name)
        elif kind in "TDBRG":  # global text, data, bss, read-only, small data: strong definitions
            defined.add(name)
    return defined, used


def system_library_symbols():
    """What the C and C++ support libraries define. The runtime interposes many of these (fclose,
    free, mmap, __cxa_throw, ...): a call to one is a call to the C library, whichever room's
    definition the program binds to, and it is not checked."""
    cc = shutil.which("cc") or shutil.which("gcc")
    names = set()
    for lib in ("libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1"):
        path = subprocess.run([cc, f"-print-file-name={lib}"], capture_output=True, text=True).stdout.strip() if cc else ""
        if not path or not os.path.isfile(path):
            continue
        out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True).stdout
        for line in out.splitlines():
            fields = line.split()
            if fields:
                names.add(fields[-1].split("@")[0])
    return names


def target_of(build, output):
    """The CMake target an object belongs to: the `NAME.dir` folder its path runs through."""
    m = re.search(r"CMakeFiles/([^/]+)\.dir/", output)
    return m.group(1) if m else os.path.dirname(output)


def link_violations(root, build):
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        commands = json.load(f)
    targets = {}
    for c in commands:
        source = os.path.join(c.get("directory", build), c["file"])
        output = c.get("output") or re.search(r"-o\s+(\S+)", c.get("command", "")).group(1)
        obj = os.path.join(c.get("directory", build), output)
        place = place_of(root, source)
        if place is None or not os.path.isfile(obj):
            continue
        targets.setdefault(target_of(build, output), []).append((os.path.relpath(source, root), place, obj))
    bad = []
    interposed = system_library_symbols()
    for target, objects in sorted(targets.items()):
        table = [(rel, place) + symbols(obj) for rel, place, obj in objects]
        definer = {}
        for rel, place, defined, _ in table:
            for name in defined:
                definer[name] = (rel, place)
        for rel, place, _, used in table:
            for name in sorted(used):
                if name not in definer or name in interposed:
                    continue
                where, other = definer[name]
                why = points_wrong(place, other)
                if why:
                    bad.append(f"{rel} calls {name}, defined in {where} ({why}; target {target})")
    return bad


def self_test():
    """Each planted include and link must be caught, and a tree without them must pass."""
    planted = {
        "checker/relative.cpp": '#include "../engine/core/world.hpp"\n',           # relative, up
        "include/top.h": '#include "engine/core/world.hpp"\n',                     # top-level include/*.h
        "level1/l1.c": '#include "runtime/options/options.hpp"\n',                 # beside (level1 and runtime)
        "runtime/base/uses_bench.cpp": '#include "bench/bench_util.hpp"\n',        # into bench
        "runtime/base/same_folder.c": '#include "../../checker/checker.hpp"\n',    # a .c file
        "engine/core/up_a_floor.cpp": '#include "engine/host/entry.hpp"\n',        # a room above, same hall
        "runtime/fibers/beside.cpp": '#include "runtime/options/options.hpp"\n',   # a room beside, same floor
        "tools/loose.cpp": "",                                                     # in no room
    }
    clean = {
        "engine/core/world.hpp": '#include "runtime/options/options.hpp"\n#include "checker/checker.hpp"\n#include <vector>\n',
        "engine/core/world.cpp": '#include "world.hpp"\n#include "../../replay/trace.hpp"\n#include <bsp.h>\n',
        "engine/host/entry.hpp": '#include "engine/core/world.hpp"\n',
        "runtime/options/options.hpp": '#include "bspcheck/bspcheck.hpp"\n#include "runtime/base/hash.hpp"\n',
        "runtime/base/hash.hpp": "",
        "checker/checker.hpp": '#include "runtime/options/options.hpp"\n',
        "replay/trace.hpp": '#include "runtime/options/options.hpp"\n',
        "include/bsp.h": "",
        "include/bspcheck/bspcheck.hpp": '#include "../bsp.h"\n',
        "bench/bench_util.hpp": '#include "engine/core/world.hpp"\n',
        "tools/commands/main.cpp": '#include "engine/core/world.hpp"\n#include <nlohmann/json.hpp>\n',
    }
    failures = []
    with tempfile.TemporaryDirectory() as root:
        def write(files):
            for rel, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
                with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                    f.write(text)
        write(clean)
        if include_violations(root):
            failures.append(f"a clean tree fails: {include_violations(root)}")
        write(planted)
        found = include_violations(root)
        for rel in planted:
            if not any(v.startswith(rel + " ") for v in found):
                failures.append(f"not caught: {rel} ({planted[rel].strip()})")
        if len(found) != len(planted):
            failures.append(f"expected {len(planted)} include violations, found {found}")
        failures += link_self_test(root)
    for f in failures:
        print("FAIL: self-test:", f)
    return not failures


def link_self_test(root):
    """A core file calling a function that a host file defines (the shape of the old
    program_identity) is caught; the host calling the core, and an inline copy, are not."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        return ["no C compiler to build the link self-test's objects"]
    sources = {
        "engine/core/schedule.c": "int identify(void);\nint record(void) { return identify(); }\n"
                                  "static inline int twice(int x) { return 2 * x; }\nint core_twice(int x) { return twice(x); }\n",
        "engine/host/program.c": "int record(void);\nint identify(void) { return 7; }\nint host(void) { return record(); }\n",
    }
    build = os.path.join(root, "build")
    os.makedirs(build)
    commands = []
    for rel, text in sources.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        out = f"CMakeFiles/lib.dir/{rel}.o"
        os.makedirs(os.path.join(build, os.path.dirname(out)), exist_ok=True)
        subprocess.run([cc, "-c", path, "-o", os.path.join(build, out)], check=True)
        commands.append({"directory": build, "file": path, "output": out, "command": f"{cc} -c {path} -o {out}"})
    with open(os.path.join(build, "compile_commands.json"), "w", encoding="utf-8") as f:
        json.dump(commands, f)
    found = link_violations(root, build)
    if len(found) != 1 or not found[0].startswith("engine/core/schedule.c calls identify, defined in engine/host/program.c"):
        return [f"the planted upward call: expected one link violation, found {found}"]
    return []


def main(argv):
    args = argv[1:]
    if args[:1] == ["--self-test"]:
        if not self_test():
            return 1
        print("layers self-test: ok")
        args = args[1:]
    build = None
    if args[:1] == ["--build"]:
        build, args = args[1], args[2:]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    bad = include_violations(root)
    if build:
        bad += link_violations(root, build)
    for b in bad:
        print("FAIL:", b)
    if not bad:
        rooms = sum(len(r) for r in SUBLAYER.values())
        print(f"layers: ok ({len(LAYER)} folders, {rooms} rooms; includes{' and links' if build else ''})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
