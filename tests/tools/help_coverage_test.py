#!/usr/bin/env python3
"""help_coverage_test.py BSP-CHECK WRAPPER_SOURCE MAN_DIR COMPLETION_DIR: every command and every
option that `bsp-check --help` and each command's --help list appears in the manual page
bsp-check(1) and in the bash and zsh completion; every key of --list-options and every rule of --list-rules
appears in bspcheck-options(7), and every rule id in the completion (the values of --disable);
bspcc's and bspcxx's own options appear in their pages and completion. The help is read here with
its own small parser, not packaging/cli_model.py, so a fault of that model shows as a failure."""
import json
import re
import subprocess
import sys

driver, wrapper_source, man_dir, completion_dir = sys.argv[1:5]
failures = []


def run(*args):
    return subprocess.run([driver, *args], check=True, capture_output=True, text=True).stdout


def options_of(help_text):
    names, on = [], False
    for line in help_text.splitlines():
        if line in ("Options:", "Positionals:"):
            on = line == "Options:"
            continue
        m = re.match(r"^  (-\S+)", line)
        if on and m:
            names += m.group(1).split(",")
    return names


def man_text(name):
    # The words as a reader sees them: roff's \- is '-', fonts and \& are not text.
    text = open(f"{man_dir}/{name}").read()
    return re.sub(r"\\f[BIRP]|\\&", "", text).replace("\\-", "-").replace("\\e", "\\")


def has_word(text, word):
    return re.search(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])", text) is not None


def need(text, word, where):
    if not has_word(text, word):
        failures.append(f"{word} is not in {where}")


top = run("--help")
commands = re.findall(r"^  ([a-z]+)\s{2,}", top.split("Commands:")[1].split("\n\n")[0], re.M)
if len(commands) < 7:
    failures.append(f"only {commands} found as commands in --help")
page = man_text("bsp-check.1")
completion = open(f"{completion_dir}/bsp-check").read()
zsh = open(f"{completion_dir}/_bsp-check").read()
checked = 0
for command in commands:
    need(page, command, "bsp-check.1")
    need(completion, command, "the bsp-check completion")
    need(zsh, command, "the bsp-check zsh completion")
    options = options_of(top if command == "run" else run(command, "--help"))
    if "--help" not in options:
        failures.append(f"no options read from bsp-check {command} --help")
    for option in options:
        need(page, option, "bsp-check.1")
        need(completion, option, "the bsp-check completion")
        need(zsh, option, "the bsp-check zsh completion")
        checked += 1
for flag in re.findall(r"bsp-check (--list-[a-z]+)", top) + ["--version"]:
    need(page, flag, "bsp-check.1")
    need(completion, flag, "the bsp-check completion")
    need(zsh, flag, "the bsp-check zsh completion")

options_page = man_text("bspcheck-options.7")
keys = [o["key"] for o in json.loads(run("--list-options", "--json"))]
rules = [r["id"] for r in json.loads(run("--list-rules", "--json"))]
for key in keys:
    need(options_page, key, "bspcheck-options.7")
for rule in rules:
    need(options_page, rule, "bspcheck-options.7")
    need(completion, rule, "the bsp-check completion")
    need(zsh, rule, "the bsp-check zsh completion")

wrapper = open(wrapper_source).read()
arg_loop = wrapper[wrapper.index('case "$arg" in'):]
wrapper_options = re.findall(r"^\s*(--[a-z]+)", arg_loop[:arg_loop.index("esac")], re.M)
if sorted(set(wrapper_options)) != ["--backend", "--dialect", "--showme"]:
    failures.append(f"the wrapper's options read as {wrapper_options}")
wrapper_completion = open(f"{completion_dir}/bspcc").read()
wrapper_zsh = open(f"{completion_dir}/_bspcc").read()
for option in set(wrapper_options):
    for name in ("bspcc.1", "bspcxx.1"):
        need(man_text(name), option, name)
    need(wrapper_completion, option, "the bspcc completion")
    need(wrapper_zsh, option, "the bspcc zsh completion")

for f in failures:
    print("FAIL: " + f)
if failures:
    sys.exit(1)
print(f"help coverage test: ok ({len(commands)} commands, {checked} options, {len(keys)} keys, {len(rules)} rules)")
