"""A run report as JUnit XML, for CI: one testsuite per collection, one testcase per call."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from ._run import RunReport

# XML 1.0 cannot hold most control characters, even escaped; results may contain them.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _text(value: object) -> str:
    return _NOT_XML.sub("\N{REPLACEMENT CHARACTER}", str(value))


def junit_xml(report: RunReport) -> str:
    """The report as a JUnit XML document (failures carry every failed expectation)."""
    passed, failed = report.counts
    suites = ET.Element("testsuites", name="opgate run", tests=str(len(report.calls)), failures=str(failed), errors="0", time=f"{report.seconds:.3f}")
    suite = ET.SubElement(suites, "testsuite", name=_text(report.collection.name), tests=str(len(report.calls)), failures=str(failed), errors="0", skipped="0", time=f"{report.seconds:.3f}")
    properties = ET.SubElement(suite, "properties")
    ET.SubElement(properties, "property", name="mode", value=report.mode)
    ET.SubElement(properties, "property", name="path", value=_text(report.collection.path))
    for call in report.calls:
        case = ET.SubElement(suite, "testcase", classname=_text(f"{report.collection.name}"), name=_text(f"{call.call.file_name} ({call.call.op})"), time=f"{call.seconds:.3f}")
        if not call.passed:
            failures = call.failures
            message = "; ".join(f"{c.what}: {c.detail}" for c in failures)
            node = ET.SubElement(case, "failure", message=_text(message[:1000]), type="ExpectationFailed")
            node.text = _text("\n".join(f"expected {c.what}, {c.detail}" for c in failures))
        out = ET.SubElement(case, "system-out")
        out.text = _text("\n".join([f"how: {call.how}", *(f"{'PASS' if c.passed else 'FAIL'} {c.what} ({c.detail})" for c in call.checks),
                                    "sent: " + json.dumps(call.sent_args, ensure_ascii=False, default=str)[:2000]]))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"
