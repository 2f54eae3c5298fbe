"""cli_model.py: what the bsp-check command line is, read from the built driver itself.

The manual pages (man_pages.py) and the shell completion (completion.py) are generated from this
model, and tests/tools/help_coverage_test.py checks them against it, so none of them can drift
from the driver: the commands and their options are those of each command's --help (the CLI11
definitions in tools/), the BSPCHECK_OPTIONS keys those of `--list-options --json`
(runtime/options/options.def), the rules those of `--list-rules --json` (include/bspcheck/rules.def).
The compiler wrappers' options and dialects are read from their source, tools/compiler_wrapper.sh.in.
"""
import json
import re
import subprocess
from dataclasses import dataclass, field


@dataclass
class Option:
    names: list          # ["-p", "--procs"]
    value: str           # "TEXT", "FILE", "" for a flag
    help: str
    choices: list = field(default_factory=list)  # the values a list-valued option takes
    default: str = ""


@dataclass
class Command:
    name: str            # "run", "replay", ...
    summary: str         # the line of the top-level help's Commands list
    description: str     # the text before Usage/Options in the command's --help
    usage: list          # the Usage lines
    options: list        # [Option]
    positionals: list    # [Option] with names ["PROGRAM"] etc.


@dataclass
class Model:
    version: str
    description: str
    usage: list
    commands: list       # [Command], run first
    catalogues: list     # [(flag, help)]: --list-rules, --list-options, --version
    options_table: list  # rows of --list-options --json
    rules: list          # rows of --list-rules --json
    wrapper_options: list  # [(option, help)] of bspcc/bspcxx
    dialects: list       # [[name, alias...]] bspcc --dialect takes
    backends: list       # [name] bspcc --backend takes


def _run(driver, *args):
    return subprocess.run([driver, *args], check=True, capture_output=True, text=True).stdout


# CLI11 (2.1) prints an option as two spaces, the names (comma-separated) and the value ("TEXT",
# "FILE", "TEXT:{a,b}" with a set validator's values, "TEXT:<what>" with another validator's,
# "=<default>" last), padded to column 30, then the description; when names and value reach
# column 30, the description starts on the next line at column 30. Further description lines
# (an embedded newline) are indented to column 30 as well.
_COLUMN = 30
_VALUE = re.compile(r"^(?P<type>[A-Z][A-Z/]*)(?::(?P<check>.*?))?(?:=(?P<default>[^=]*))?(?P<more> \.\.\.)?(?: REQUIRED)?$")


def _option(head, help_text):
    names, _, value = head.strip().partition(" ")
    o = Option(names=names.split(","), value="", help=help_text)
    m = _VALUE.match(value.strip())
    if value and m:
        o.value = m.group("type") + (" ..." if m.group("more") else "")
        check = m.group("check") or ""
        if check.startswith("{") and check.endswith("}"):
            o.choices = check[1:-1].split(",")
        o.default = m.group("default") or ""
    elif value:
        o.value = value.strip()
    return o


def parse_help(text):
    """Split a CLI11 --help into (description, usage lines, options, positionals)."""
    description, usage, options, positionals = [], [], [], []
    section = "description"
    lines = text.splitlines()
    current = None
    for i, line in enumerate(lines):
        if line.startswith("Usage:") or (section == "usage" and line.startswith("       ")):
            section = "usage"
            usage.append(line[len("Usage:"):].strip() if line.startswith("Usage:") else line.strip())
            continue
        if line in ("Options:", "Positionals:"):
            section = line[:-1].lower()
            current = None
            continue
        if section in ("description", "usage", "description-after"):
            if section == "usage" and line.strip():
                section = "description-after"
            if line.strip() or description:
                description.append(line)
            continue
        if not line.strip():
            current = None
        elif line.startswith(" " * _COLUMN) and current is not None:
            current.help = (current.help + " " + line.strip()).strip()
        elif line.startswith("  ") and not line.startswith("   "):
            following = lines[i + 1] if i + 1 < len(lines) else ""
            if following.startswith(" " * _COLUMN) and len(line) >= _COLUMN:
                head, help_text = line, ""  # the description is on the next line
            else:
                head, help_text = line[:_COLUMN], line[_COLUMN:].strip()
            current = _option(head, help_text)
            (options if section == "options" else positionals).append(current)
    while description and not description[-1].strip():
        description.pop()
    return "\n".join(description), usage, options, positionals


# The top-level help lists the commands as "  name     summary" under "Commands:".
def _commands_list(description):
    commands, on = [], False
    for line in description.splitlines():
        if line.strip() == "Commands:":
            on = True
            continue
        m = re.match(r"^  ([a-z][a-z-]*)\s{2,}(.*)$", line)
        if on and m:
            commands.append((m.group(1), m.group(2)))
        elif on and line.strip() and not line.startswith("  "):
            on = False
    return commands


def _choices(options_table, option):
    """The values of an option whose syntax in the options table is a list ("a, b or c")."""
    for row in options_table:
        if row["flag"] and row["flag"] in option.names:
            syntax = row["syntax"]
            if re.fullmatch(r"[a-z_]+(, [a-z_]+)* or [a-z_]+", syntax):
                return re.split(r", | or ", syntax)
    return option.choices


def _wrapper(source):
    text = open(source).read()
    # The wrapper's own options: the arms of its argument loop that start with --, with the
    # comment line of the header that explains each.
    options = []
    loop = text[text.index('case "$arg" in'):]
    loop = loop[:loop.index("esac")]
    for arm in re.findall(r"^\s*(--[a-z]+(?:=\*)?)\)", loop, re.M):
        name = arm.replace("=*", "=NAME")
        # --dialect=* takes the value; the arm --dialect (no '=') only says how to give it.
        if not any(o.split("=")[0] == name.split("=")[0] for o in options):
            options.append(name)
        elif "=" in name:
            options = [name if o.split("=")[0] == name.split("=")[0] else o for o in options]
    dialects = []
    block = text[text.index('case "$dialect" in'):]
    block = block[:block.index("esac")]
    for arm in re.findall(r"^\s*([a-z]+(?:\|[a-z]+)*)\)", block, re.M):
        dialects.append(arm.split("|"))
    block = text[text.index('case "$backend" in'):]
    block = block[:block.index("esac")]
    backends = re.findall(r"^  ([a-z]+)\)", block, re.M)
    return options, dialects, backends


def load(driver, wrapper_source):
    top = _run(driver, "--help")
    description, usage, run_options, run_positionals = parse_help(top)
    options_table = json.loads(_run(driver, "--list-options", "--json"))
    rules = json.loads(_run(driver, "--list-rules", "--json"))
    commands = []
    for name, summary in _commands_list(description):
        if name == "run":
            text_description, cmd_usage, options, positionals = description, usage, run_options, run_positionals
        else:
            text_description, cmd_usage, options, positionals = parse_help(_run(driver, name, "--help"))
        if name == "run":  # the options table's flags are those of run
            for o in options:
                o.choices = _choices(options_table, o)
        commands.append(Command(name, summary, text_description, cmd_usage, options, positionals))
    # The catalogues are words of their own before any command (tools/commands/bsp_check_main.cpp), each
    # with its own --help: "bsp-check --list-rules: <what it prints>".
    catalogues = []
    for flag in dict.fromkeys(re.findall(r"bsp-check (--list-[a-z]+)", description)):
        what = _run(driver, flag, "--help").splitlines()[0].split(": ", 1)[1]
        catalogues.append((flag, what))
    wrapper_options, dialects, backends = _wrapper(wrapper_source)
    # "bsp-check VERSION", then what this machine's watchpoints do (not the page's business).
    version = _run(driver, "--version").splitlines()[0].strip().removeprefix("bsp-check ")
    return Model(version, description, usage, commands, catalogues, options_table, rules, wrapper_options, dialects,
                 backends)
