#!/usr/bin/env python3
"""Checks SARIF logs against the SARIF 2.1.0 object model: Debian's python3-sarif-python-om, whose
classes are generated from the OASIS 2.1.0 JSON schema (one class per schema definition, each
attribute named by its schema property, required properties without a default).

Every object of the log is matched to its schema definition by where it appears (the table
CHILDREN below, written from the specification's structure): each of its properties must be one
the definition declares (the schema forbids others, and GitHub code scanning rejects them), and
every required one must be there. Property bags ("properties") are free-form. A property whose
definition the table does not know fails the check, so that new structure in the reports is
added here, not passed unchecked. A few enumerations and the 1-based line numbers are checked too.

usage: sarif_object_model.py LOG.sarif...
"""
import json
import sys

try:
    import sarif_om
except ImportError:  # a python3 other than Debian's (pyenv, a venv): Debian's package, appended
    sys.path.append("/usr/lib/python3/dist-packages")
    import sarif_om
import attr

# (definition, property) -> definition of the property's value (or of each element of a list, or
# of each value of a map).
CHILDREN = {
    ("SarifLog", "runs"): "Run",
    ("Run", "tool"): "Tool",
    ("Run", "invocations"): "Invocation",
    ("Run", "results"): "Result",
    ("Run", "originalUriBaseIds"): "ArtifactLocation",
    ("Tool", "driver"): "ToolComponent",
    ("ToolComponent", "rules"): "ReportingDescriptor",
    ("ReportingDescriptor", "shortDescription"): "MultiformatMessageString",
    ("ReportingDescriptor", "fullDescription"): "MultiformatMessageString",
    ("ReportingDescriptor", "help"): "MultiformatMessageString",
    ("ReportingDescriptor", "defaultConfiguration"): "ReportingConfiguration",
    ("Invocation", "toolExecutionNotifications"): "Notification",
    ("Notification", "message"): "Message",
    ("Result", "message"): "Message",
    ("Result", "locations"): "Location",
    ("Result", "relatedLocations"): "Location",
    ("Result", "codeFlows"): "CodeFlow",
    ("Result", "stacks"): "Stack",
    ("CodeFlow", "threadFlows"): "ThreadFlow",
    ("CodeFlow", "message"): "Message",
    ("ThreadFlow", "locations"): "ThreadFlowLocation",
    ("ThreadFlowLocation", "location"): "Location",
    ("Stack", "message"): "Message",
    ("Stack", "frames"): "StackFrame",
    ("StackFrame", "location"): "Location",
    ("Location", "physicalLocation"): "PhysicalLocation",
    ("Location", "logicalLocations"): "LogicalLocation",
    ("Location", "message"): "Message",
    ("PhysicalLocation", "artifactLocation"): "ArtifactLocation",
    ("PhysicalLocation", "region"): "Region",
    ("ArtifactLocation", "description"): "Message",
}
# Properties whose values are plain JSON (strings, numbers, maps of strings).
PLAIN = {"properties", "partialFingerprints", "fingerprints"}
ENUMS = {
    ("Result", "level"): {"none", "note", "warning", "error"},
    ("ReportingConfiguration", "level"): {"none", "note", "warning", "error"},
    ("Notification", "level"): {"none", "note", "warning", "error"},
    ("Result", "kind"): {"notApplicable", "pass", "fail", "review", "open", "informational"},
}


def definitions():
    """definition name -> (declared properties, required properties), from sarif_om's classes."""
    out = {}
    for name in dir(sarif_om):
        cls = getattr(sarif_om, name)
        if not (isinstance(cls, type) and attr.has(cls)):
            continue
        declared, required = set(), set()
        for a in attr.fields(cls):
            prop = a.metadata.get("schema_property_name", a.name)
            declared.add(prop)
            if a.default is attr.NOTHING:
                required.add(prop)
        out[name] = (declared, required)
    return out


def check(value, definition, path, defs, errors):
    if definition not in defs:
        errors.append(f"{path}: the object model has no definition {definition}")
        return
    if not isinstance(value, dict):
        errors.append(f"{path}: a {definition} must be an object, not {type(value).__name__}")
        return
    declared, required = defs[definition]
    for prop in sorted(required - set(value)):
        errors.append(f"{path}: {definition} lacks its required property '{prop}'")
    for prop, child in value.items():
        where = f"{path}.{prop}"
        if prop == "$schema" and definition == "SarifLog":
            continue
        if prop not in declared:
            errors.append(f"{where}: '{prop}' is not a property of {definition}")
            continue
        if (definition, prop) in ENUMS and child not in ENUMS[(definition, prop)]:
            errors.append(f"{where}: {child!r} is not one of {sorted(ENUMS[(definition, prop)])}")
        if definition == "Region" and prop in ("startLine", "endLine") and not (isinstance(child, int) and child >= 1):
            errors.append(f"{where}: a line number is an integer >= 1, not {child!r}")
        if prop in PLAIN or not isinstance(child, (dict, list)):
            continue
        sub = CHILDREN.get((definition, prop))
        if sub is None:
            errors.append(f"{where}: no definition known for {definition}.{prop} (add it to CHILDREN)")
            continue
        if isinstance(child, list):
            for i, element in enumerate(child):
                check(element, sub, f"{where}[{i}]", defs, errors)
        elif definition == "Run" and prop == "originalUriBaseIds":  # a map of ids to locations
            for key, element in child.items():
                check(element, sub, f"{where}.{key}", defs, errors)
        else:
            check(child, sub, where, defs, errors)


def main(paths):
    defs = definitions()
    assert "SarifLog" in defs and "Result" in defs, "sarif_om has no SARIF classes"
    failed = False
    for p in paths:
        log = json.load(open(p, encoding="utf-8"))
        errors = []
        if log.get("version") != "2.1.0":
            errors.append(f"version is {log.get('version')!r}, not '2.1.0'")
        check(log, "SarifLog", "$", defs, errors)
        # Every result's rule resolves to the rule at its index.
        for r_i, run in enumerate(log.get("runs", [])):
            rules = run.get("tool", {}).get("driver", {}).get("rules", [])
            for i, res in enumerate(run.get("results", [])):
                idx = res.get("ruleIndex", -1)
                if not (0 <= idx < len(rules)) or rules[idx].get("id") != res.get("ruleId"):
                    errors.append(f"$.runs[{r_i}].results[{i}]: ruleIndex {idx} does not name rule {res.get('ruleId')!r}")
                if not res.get("locations"):
                    errors.append(f"$.runs[{r_i}].results[{i}]: no location (GitHub code scanning needs one)")
        for e in errors[:40]:
            print(f"{p}: {e}")
        failed = failed or bool(errors)
        if not errors:
            print(f"ok: {p} fits the SARIF 2.1.0 object model")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
