"""Findings in the formats CI servers read natively: GitHub annotations, JUnit XML and SARIF 2.1.0.

A check returns findings; these turn them into what a CI service shows beside the
code: an annotation on the file and line of a pull request (GitHub), a failed test
per finding (JUnit, read by GitLab, Jenkins, Azure…), a code-scanning alert (SARIF).
The messages quote what a stranger's pull request wrote, so every format escapes
it: GitHub's command syntax, XML's characters (control characters dropped), JSON.
"""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version

from .findings import ERROR, Finding

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/rift-commanders/forge"
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


@dataclass
class Suite:
    """One check's outcome as CI sees it: its name, its findings, and skipped with a reason or not."""

    name: str
    findings: list[Finding] = field(default_factory=list)
    skipped: str = ""
    failed: bool | None = None  # None: failed when an error finding is present
    seconds: float = 0.0

    @property
    def failing(self) -> bool:
        if self.failed is not None:
            return self.failed
        return any(f.severity == ERROR for f in self.findings)


def forge_version() -> str:
    try:
        return version("forge")
    except PackageNotFoundError:
        return "0+unknown"


# -- GitHub workflow commands ----------------------------------------------------------
def _gh_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def github(findings: list[Finding]) -> str:
    """One ``::error``/``::warning`` workflow command per finding, on its file, line and column."""
    lines = []
    for f in findings:
        props = [f"file={_gh_property(f.position.file)}"]
        if f.position.line:
            props.append(f"line={f.position.line}")
            if f.position.col:
                props.append(f"col={f.position.col}")
        props.append(f"title={_gh_property(f'forge [{f.rule}]')}")
        message = f.message + (f"\nhint: {f.hint}" if f.hint else "")
        level = "error" if f.severity == ERROR else "warning"
        lines.append(f"::{level} {','.join(props)}::{_gh_data(message)}")
    return "\n".join(lines)


# -- JUnit XML ---------------------------------------------------------------------------
def _xml_text(text: str) -> str:
    return _XML_INVALID.sub("\ufffd", text)


def junit(suites: list[Suite], name: str) -> str:
    """JUnit XML: a test case per finding (an error fails it), or one passing case for a clean check."""
    root = ET.Element("testsuites", name=_xml_text(name))
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for suite in suites:
        node = ET.SubElement(root, "testsuite", name=suite.name)
        cases = failures = skipped = 0
        if suite.skipped:
            case = ET.SubElement(node, "testcase", classname=f"forge.{suite.name}", name=suite.name)
            ET.SubElement(case, "skipped", message=_xml_text(suite.skipped))
            cases, skipped = 1, 1
        for f in suite.findings:
            case = ET.SubElement(node, "testcase", classname=f"forge.{suite.name}.{f.rule}",
                                 name=_xml_text(f"{f.position} [{f.rule}]"), file=_xml_text(f.position.file))
            if f.position.line:
                case.set("line", str(f.position.line))
            text = _xml_text(f.render())
            if f.severity == ERROR:
                failure = ET.SubElement(case, "failure", message=_xml_text(f.message), type=f.rule)
                failure.text = text
                failures += 1
            else:
                ET.SubElement(case, "system-out").text = text
            cases += 1
        if not suite.findings and not suite.skipped:
            case = ET.SubElement(node, "testcase", classname=f"forge.{suite.name}", name=suite.name)
            cases += 1
            if suite.failing:
                failure = ET.SubElement(case, "failure", message=f"{suite.name} failed", type=suite.name)
                failure.text = f"{suite.name} failed"
                failures += 1
        node.set("tests", str(cases))
        node.set("failures", str(failures))
        node.set("errors", "0")
        node.set("skipped", str(skipped))
        node.set("time", f"{suite.seconds:.3f}")
        totals["tests"] += cases
        totals["failures"] += failures
        totals["skipped"] += skipped
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("errors", "0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


# -- SARIF 2.1.0 -------------------------------------------------------------------------
def sarif(findings: list[Finding], hints: dict[str, str] | None = None) -> str:
    """A SARIF 2.1.0 log with one run of forge: a rule per rule id, a result per finding.

    File paths are relative to the project root (``%SRCROOT%``), as code scanning wants.
    """
    rule_ids = sorted({f.rule for f in findings})
    index = {rid: i for i, rid in enumerate(rule_ids)}
    rules = []
    for rid in rule_ids:
        rule = {"id": rid, "name": rid, "shortDescription": {"text": f"forge rule `{rid}`"},
                "helpUri": f"{INFORMATION_URI}/blob/main/docs/card-format.md"}
        if hints and rid in hints:
            rule["fullDescription"] = {"text": hints[rid]}
        rules.append(rule)
    results = []
    for f in findings:
        location: dict = {"artifactLocation": {"uri": f.position.file, "uriBaseId": "%SRCROOT%"}}
        if f.position.line:
            region = {"startLine": f.position.line}
            if f.position.col:
                region["startColumn"] = f.position.col
            location["region"] = region
        message = f.message + (f"\nhint: {f.hint}" if f.hint else "")
        results.append({"ruleId": f.rule, "ruleIndex": index[f.rule],
                        "level": "error" if f.severity == ERROR else "warning",
                        "message": {"text": message}, "locations": [{"physicalLocation": location}]})
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "forge", "version": forge_version(), "semanticVersion": forge_version(),
                                "informationUri": INFORMATION_URI, "rules": rules}},
            "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "The game project folder (--root)."}}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    return json.dumps(log, indent=2, ensure_ascii=False)
