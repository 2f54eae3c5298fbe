#!/usr/bin/env python3
"""man_pages.py DRIVER WRAPPER_SOURCE OUT_DIR: writes the manual pages bsp-check.1, bspcc.1,
bspcxx.1 and bspcheck-options.7 into OUT_DIR, at build time, from the built driver's own help and
tables (cli_model.py), so that a page cannot say what the driver does not."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_model  # noqa: E402

DOCS = "/usr/share/doc/bsp-check/docs"


def esc(text):
    """Roff-escape running text: backslashes, hyphens (so that options copy as ASCII '-'), and a
    line that would start with a control character."""
    out = []
    for line in str(text).replace("\\", "\\e").replace("-", "\\-").splitlines() or [""]:
        out.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(out)


def header(name, section, title, version):
    return [f'.TH {name.upper()} {section} "" "bsp-check {esc(version)}" "{title}"']


def option_entry(o):
    names = ", ".join("\\fB" + esc(n) + "\\fR" for n in o.names)
    value = " \\fI" + esc(o.value) + "\\fR" if o.value else ""
    lines = [".TP", names + value, esc(o.help or "") + (" (default: " + esc(o.default) + ")" if o.default else "")]
    if o.choices:
        lines.append("One of: " + ", ".join("\\fB" + esc(c) + "\\fR" for c in o.choices) + ".")
    return lines


def paragraphs(text):
    """Plain text from a --help description: blank lines become paragraph breaks, indented lines
    (lists, examples) are kept as they are."""
    lines = []
    for line in text.splitlines():
        if not line.strip():
            lines.append(".PP")
        elif line.startswith(" "):
            lines += [".nf", esc(line), ".fi"]
        else:
            lines.append(esc(line))
    return lines


def bsp_check_page(m):
    top = m.commands[0]
    intro = []
    for line in m.description.splitlines():
        if line.startswith(("Usage:", "       bsp-check")) or line.strip() == "Commands:" or \
                any(line.startswith("  " + c.name + " ") for c in m.commands):
            continue
        intro.append(line)
    # The lines after the Commands list are separate statements, not one paragraph.
    after = m.description.split("Commands:")[1].splitlines() if "Commands:" in m.description else []
    intro = [line if line not in after or not line.strip() else line + "\n" for line in intro]
    first, rest = intro[0], "\n".join(intro[1:])
    summary = first.split(": ", 1)[1] if ": " in first else first
    out = header("bsp-check", 1, "User Commands", m.version)
    out += [".SH NAME", "bsp-check \\- " + esc(summary.rstrip("."))]
    out += [".SH SYNOPSIS", ".nf"]
    out += ["\\fBbsp-check\\fR " + esc(u.split(" ", 1)[1] if u.startswith("bsp-check ") else u) for u in m.usage]
    out += ["\\fBbsp-check\\fR " + esc(flag) + " [\\-\\-json]" for flag, _ in m.catalogues]
    out += ["\\fBbsp-check\\fR \\-\\-version", ".fi"]
    out += [".SH DESCRIPTION"] + paragraphs(rest.strip())
    out += [".SH COMMANDS"]
    for c in m.commands:
        out += [".SS " + esc(c.name), esc(c.summary) + "."]
        if c is not top:
            out += [".PP", ".nf"] + [esc(u) for u in c.usage] + [".fi"]
            text = c.description.strip()
            if text:
                out += [".PP"] + paragraphs(text)
        for p in c.positionals:
            out += option_entry(p)
        for o in c.options:
            out += option_entry(o)
    out += [".SH CATALOGUES"]
    for flag, text in m.catalogues:
        out += [".TP", "\\fB" + esc(flag) + "\\fR [\\fB\\-\\-json\\fR]", esc(text)]
    out += [".TP", "\\fB\\-\\-version\\fR", "print the version (" + esc(m.version) + ")"]
    out += [".SH ENVIRONMENT", ".TP", "\\fBBSPCHECK_OPTIONS\\fR",
            "the options of a program run without the driver (key=value:key=value); see "
            "\\fBbspcheck\\-options\\fR(7)"]
    exit_status = re.search(r"Exit status: ([^.]*)\.", m.description)
    if exit_status:  # the sentence of --help, not a copy of it
        out += [".SH EXIT STATUS", esc(exit_status.group(1)) + "."]
    out += [".SH SEE ALSO", "\\fBbspcc\\fR(1), \\fBbspcxx\\fR(1), \\fBbspcheck\\-options\\fR(7),",
            esc(DOCS + "/cli.md"), "(every command and output format),", esc(DOCS + "/checks.md"),
            "(every rule, with an example and its fix)"]
    return out


def wrapper_blocks(source_text, name):
    """The wrapper's header comment (tools/compiler_wrapper.sh.in) as blocks: a sentence or
    paragraph, with the indented lines that list its items; the title and usage lines left out."""
    blocks = []
    for line in source_text.splitlines()[1:]:  # after the #! line
        if not line.startswith("#"):
            break
        text = line[2:] if line.startswith("# ") else line[1:]
        if text.startswith("@wrapper@: "):
            continue  # the title: the NAME line
        text = text.replace("@wrapper@", name)
        if text.startswith("  "):
            if text.strip().startswith(name + " "):
                continue  # the usage line: the SYNOPSIS
            blocks[-1]["items"].append(text.strip())
        elif blocks and not blocks[-1]["items"] and not blocks[-1]["text"].endswith("."):
            blocks[-1]["text"] += " " + text.strip()
        else:
            blocks.append({"text": text.strip(), "items": []})
    return blocks


def render_block(block):
    out = [esc(block["text"])]
    for item in block["items"]:
        out += [".RS", ".IP \\(bu 2", esc(item), ".RE"]
    return out


def wrapper_page(m, name, source_text):
    blocks = wrapper_blocks(source_text, name)
    words = [o.split("=")[0] for o in m.wrapper_options]
    about_option = [b for b in blocks if any(w in b["text"] for w in words)]
    other = "bspcxx" if name == "bspcc" else "bspcc"
    lang = "C" if name == "bspcc" else "C++"
    out = header(name, 1, "User Commands", m.version)
    out += [".SH NAME", esc(name) + " \\- compile and link a " + lang + " BSPlib program against the bsp-check runtime"]
    out += [".SH SYNOPSIS", "\\fB" + name + "\\fR [\\fB\\-\\-dialect=\\fR\\fINAME\\fR] [\\fB\\-\\-backend=\\fR\\fINAME\\fR] "
            "[\\fB\\-\\-showme\\fR] "
            "[\\fIcompiler options\\fR] \\fIfile\\fR... [\\fB\\-o\\fR \\fIprog\\fR]"]
    out += [".SH DESCRIPTION"]
    for b in blocks:
        if b not in about_option:
            out += render_block(b) + [".PP"]
    out += ["Every argument that is not one of the options below is passed to the compiler."]
    out += [".SH OPTIONS"]
    for option in m.wrapper_options:
        word = option.split("=")[0]
        out += [".TP", "\\fB" + esc(word) + "\\fR" + ("=\\fINAME\\fR" if "=" in option else "")]
        for b in about_option:
            if word in b["text"]:
                out += render_block(b)
        if word == "--dialect":
            out += [".IP", "Dialects: " + "; ".join(esc(d[0]) + (" (also " + esc(", ".join(d[1:])) + ")" if d[1:] else "")
                                                    for d in m.dialects) + "."]
        if word == "--backend":
            out += [".IP", "Backends: " + "; ".join(esc(b) for b in m.backends) + "."]
    out += [".SH EXAMPLES", ".nf", esc(f"{name} -O2 prog.{'c' if name == 'bspcc' else 'cpp'} -o prog"),
            esc("bsp-check ./prog"), ".fi"]
    out += [".SH SEE ALSO", "\\fB" + other + "\\fR(1), \\fBbsp\\-check\\fR(1), \\fBbspcheck\\-options\\fR(7),",
            esc(DOCS + "/dialects.md") + ",", ".br", esc(DOCS + "/mpi.md")]  # two long paths: a line each
    return out


def options_page(m):
    out = header("bspcheck-options", 7, "Miscellaneous", m.version)
    out += [".SH NAME", "bspcheck\\-options \\- the BSPCHECK_OPTIONS keys and the rules of bsp\\-check"]
    out += [".SH DESCRIPTION",
            "A program linked with the bsp\\-check runtime takes its options from the environment variable",
            "\\fBBSPCHECK_OPTIONS\\fR, as key=value pairs separated by colons:",
            ".PP", ".nf", esc("BSPCHECK_OPTIONS=seed=17:procs=4 ./prog"), ".fi", ".PP",
            "A key with a \\fBbsp\\-check run\\fR flag is set by that flag when the driver runs the program."]
    out += [".SH OPTIONS"]
    for row in m.options_table:
        out += [".TP", "\\fB" + esc(row["key"]) + "\\fR=\\fI" + esc(row["syntax"]) + "\\fR"]
        text = esc(row["help"]) + "."
        if row["default"]:
            text += " Default: " + esc(row["default"]) + "."
        if row["flag"]:
            text += " Flag: \\fB" + esc(row["flag"]) + "\\fR."
        out += [text]
    out += [".SH RULES",
            "Each finding names its rule. An error fails the run; a warning fails it only with",
            "\\fB\\-\\-werror\\fR. \\fB\\-\\-disable\\fR \\fIRULE\\fR and a suppressions file take these ids."]
    for r in m.rules:
        out += [".TP", "\\fB" + esc(r["id"]) + "\\fR (" + esc(r["severity"]) + (", reserved" if r["reserved"] else "") + ")",
                esc(r["statement"]) + " (" + esc(r["source"]) + ").", ".br", "Fix: " + esc(r["help"])]
    out += [".SH SEE ALSO", "\\fBbsp\\-check\\fR(1), \\fBbspcc\\fR(1),", esc(DOCS + "/checks.md")]
    return out


def main():
    driver, wrapper_source, out_dir = sys.argv[1:4]
    m = cli_model.load(driver, wrapper_source)
    os.makedirs(out_dir, exist_ok=True)
    source_text = open(wrapper_source).read()
    pages = {"bsp-check.1": bsp_check_page(m), "bspcc.1": wrapper_page(m, "bspcc", source_text),
             "bspcxx.1": wrapper_page(m, "bspcxx", source_text), "bspcheck-options.7": options_page(m)}
    for name, lines in pages.items():
        with open(os.path.join(out_dir, name), "w") as f:
            f.write('.\\" Generated by packaging/man_pages.py from the bsp-check driver; do not edit.\n')
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
