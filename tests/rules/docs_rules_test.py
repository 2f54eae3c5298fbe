#!/usr/bin/env python3
"""docs/checks.md against the rule catalogue (stdlib only).

Fails when the Index table of docs/checks.md
  - lacks a row for a rule of the catalogue, or has a row for an id that is not in it,
  - lists the rules in another order than the catalogue (so it reads like --list-rules),
  - gives a rule another severity than the catalogue,
  - calls a rule "reserved" that is not, or does not say so of one that is,
  - for a rule that is not reserved: has no link, links to no heading of the document, or links
    to a section that does not mention the rule id.
--self-test also checks that each of these mistakes, made on purpose in a copy of the text, is
detected (so that the test cannot pass by parsing nothing).
"""

import argparse
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from rule_catalogue import load_rules  # noqa: E402

ROW_RE = re.compile(r"^\|\s*(?:\[`(?P<linked>[^`]+)`\]\(#(?P<anchor>[^)]+)\)|`(?P<plain>[^`]+)`)\s*\|"
                    r"\s*(?P<severity>[^|]+?)\s*\|(?P<rest>.*)$")
HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*$")


def slug(title, seen):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to '-', -1... for repeats."""
    s = re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
    n = seen.get(s, 0)
    seen[s] = n + 1
    return s if n == 0 else f"{s}-{n}"


def sections(text):
    """{anchor: text of the section up to the next heading of the same or a higher level}."""
    lines = text.splitlines()
    heads = []
    seen = {}
    in_code = False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            in_code = not in_code
        m = None if in_code else HEADING_RE.match(line)
        if m:
            heads.append((i, len(m.group(1)), slug(m.group(2), seen)))
    out = {}
    for k, (i, level, anchor) in enumerate(heads):
        end = next((j for j, lv, _ in heads[k + 1:] if lv <= level), len(lines))
        out[anchor] = "\n".join(lines[i:end])
    return out


def index_rows(text):
    """[(id, anchor or None, severity, whole row)] of the table under '## Index'."""
    rows = []
    in_index = False
    for line in text.splitlines():
        if line.startswith("## "):
            in_index = line.strip() == "## Index"
            continue
        if in_index:
            m = ROW_RE.match(line)
            if m and (m.group("linked") or m.group("plain")) != "rule":
                rows.append((m.group("linked") or m.group("plain"), m.group("anchor"),
                             m.group("severity"), line))
    return rows


def problems(rules, text):
    found = []
    rows = index_rows(text)
    secs = sections(text)
    by_id = {r["id"]: r for r in rules}
    row_ids = [r[0] for r in rows]
    for rule in rules:
        n = row_ids.count(rule["id"])
        if n != 1:
            found.append(f"{rule['id']}: {n} rows in the Index of docs/checks.md (want 1)")
    for rid, anchor, severity, line in rows:
        rule = by_id.get(rid)
        if rule is None:
            found.append(f"{rid}: a row in the Index, but no such rule in the catalogue")
            continue
        if severity != rule["severity"]:
            found.append(f"{rid}: the Index says '{severity}', the catalogue '{rule['severity']}'")
        says_reserved = "reserved" in line
        if says_reserved != rule["reserved"]:
            found.append(f"{rid}: the Index {'says' if says_reserved else 'does not say'} 'reserved', "
                         f"the catalogue has reserved={rule['reserved']}")
        if not rule["reserved"]:
            if not anchor:
                found.append(f"{rid}: its Index row links to no section")
            elif anchor not in secs:
                found.append(f"{rid}: its Index row links to #{anchor}, which is no heading of docs/checks.md")
            elif rid not in secs[anchor]:
                found.append(f"{rid}: the section #{anchor} does not mention it")
    catalogue_order = [r["id"] for r in rules]
    documented = [i for i in row_ids if i in by_id]
    if not found and documented != catalogue_order:
        found.append("the Index lists the rules in another order than the catalogue:\n  "
                     f"docs:      {documented}\n  catalogue: {catalogue_order}")
    return found


def self_test(rules, text):
    """Each kind of mistake, made in a copy of the text, must be found."""
    active = next(r for r in rules if not r["reserved"] and r["severity"] == "error")
    row = next(line for rid, _, _, line in index_rows(text) if rid == active["id"])
    heading = f"### {active['id']}"
    mutations = {
        "a missing row": text.replace(row + "\n", ""),
        "a wrong severity": text.replace(row, row.replace("| error |", "| warning |", 1)),
        "a rule called reserved": text.replace(row, row + " (reserved)"),
        "an unknown rule": text.replace(row, row + "\n| `no-such-rule` | error | x | — |"),
        "a missing section": text.replace(heading + "\n", "### renamed\n") if heading in text else None,
        "rows out of order": None,
    }
    rows = index_rows(text)
    if len(rows) >= 2:
        mutations["rows out of order"] = text.replace(rows[0][3] + "\n" + rows[1][3],
                                                      rows[1][3] + "\n" + rows[0][3])
    missed = [what for what, mutated in mutations.items()
              if mutated is None or mutated == text or not problems(rules, mutated)]
    return [f"self-test: {what} in docs/checks.md is not detected" for what in missed]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bsp-check", required=True)
    ap.add_argument("--doc", required=True, help="docs/checks.md")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    rules = load_rules(args.bsp_check)
    with open(args.doc, encoding="utf-8") as f:
        text = f.read()
    found = problems(rules, text)
    if args.self_test:
        found += self_test(rules, text)
    for p in found:
        print(f"FAIL: {p}")
    if found:
        print(f"docs/checks.md and the rule catalogue (include/bspcheck/rules.def) disagree: {len(found)} problem(s)")
        return 1
    print(f"ok: docs/checks.md documents the {len(rules)} rules of the catalogue")
    return 0


if __name__ == "__main__":
    sys.exit(main())
