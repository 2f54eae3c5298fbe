"""The rule catalogue as the bsp-check under test prints it (`bsp-check --list-rules --json`):
shared by the tests of this folder, so that they check against the same table the program uses."""

import json
import subprocess


def load_rules(bsp_check):
    """[{id, name, severity, category, statement, source, help, reserved}] in catalogue order."""
    out = subprocess.run([bsp_check, "--list-rules", "--json"], stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=60, check=True).stdout
    rules = json.loads(out)
    if not rules or not all("id" in r and "severity" in r and "reserved" in r for r in rules):
        raise SystemExit(f"bsp-check --list-rules --json printed no usable catalogue:\n{out[:2000]}")
    return rules
