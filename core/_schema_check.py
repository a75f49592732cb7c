"""Checking a parameters schema once, when a catalogue loads, without ever reaching the network.

A schema must be valid under its draft (2020-12 unless ``$schema`` names
another known one; an unknown ``$schema`` is never fetched, it is an error),
and may refer only to itself: a remote ``$ref`` would make validation reach
the network. Patterns must compile for the linear-time engine exec matches
them with, and no ``$ref`` loop may stay at the same place in the value.
Each of those errors leaves the one tool out. Two softer findings are
warnings rather than errors, because real catalogues are full of them and a
tool that can still be validated is better kept than dropped:

* a format the validator does not know (OpenAPI's ``int64``, Twilio's
  ``phone-number``) is an annotation only, and the warning says it is not
  checked;
* a local ``$ref`` that points nowhere (an OpenAPI component left behind when
  operations were flattened) is replaced by an empty schema, and reported.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ._jsonschema import Draft202012Validator, SchemaError

from ._ref_cycles import pointer as json_pointer, ref_cycles
from .jsonpointer import MISSING, resolve_local_ref
from .linear_regex import PatternNotSupported, compile_pattern
from .schema_validator import DRAFT_NAMES, UnsupportedDialect, draft_of

try:  # The Rust validator checks a schema against the metaschema ~300x faster.
    from jsonschema_rs import meta as _fast_meta
except ImportError:  # pragma: no cover - it is a declared dependency; this keeps a broken wheel from being fatal
    _fast_meta = None

FORMAT_CHECKER = Draft202012Validator.FORMAT_CHECKER
# OpenAPI's own formats say how a number or a string goes over the wire (``int64``, ``binary``); they are
# not checked, and are not a catalogue's mistake: a warning for each of GitHub's 34 ``int64``s was only noise.
OPENAPI_WIRE_FORMATS = frozenset({"int32", "int64", "float", "double", "byte", "binary", "password"})
KNOWN_FORMATS = frozenset(FORMAT_CHECKER.checkers) | OPENAPI_WIRE_FORMATS
_KEYWORD_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_DATA_KEYWORDS = ("enum", "const", "examples", "default", "required")


@dataclass(frozen=True)
class SchemaFinding:
    pointer: str
    message: str
    severity: str = "error"


def _walk(node: Any, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            # Property names are data, not keywords: "format" may be a property.
            if key in _KEYWORD_MAPS:
                if isinstance(value, dict):
                    for name, sub in value.items():
                        yield from _walk(sub, f"{path}/{key}/{name}")
            elif key not in _DATA_KEYWORDS:
                yield from _walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _walk(item, f"{path}/{i}")


def _resolves(document: dict[str, Any], ref: str) -> bool:
    return resolve_local_ref(document, ref) is not MISSING


def check_parameters(schema: Any, *, require_closed: bool = False) -> tuple[dict[str, Any] | None, list[SchemaFinding]]:
    """Check a parameters schema; return the schema to use (repaired if needed) and the findings.

    The returned schema is ``None`` when an error makes the tool unusable.
    """
    if not isinstance(schema, dict):
        return None, [SchemaFinding("", "parameters must be a JSON Schema object")]
    findings = _dialect_findings(schema)
    if findings:
        return None, findings
    findings += _meta_findings(schema)
    if schema.get("type") not in ("object", None):
        findings.append(SchemaFinding("/type", f"the top level must be an object, not {schema.get('type')!r}"))
    dangling: list[dict[str, Any]] = []
    for pointer, node in _walk(schema, ""):
        fmt = node.get("format")
        if isinstance(fmt, str) and fmt not in KNOWN_FORMATS:
            findings.append(SchemaFinding(f"{pointer}/format", f"format {fmt!r} is unknown, so it is not checked", "warning"))
        ref = node.get("$ref")
        if isinstance(ref, str):
            if not ref.startswith("#"):
                findings.append(SchemaFinding(f"{pointer}/$ref", f"remote $ref {ref!r} is not allowed; put the schema under $defs"))
            elif ref.startswith("#/") and not _resolves(schema, ref):
                findings.append(SchemaFinding(f"{pointer}/$ref", f"$ref {ref!r} points nowhere; any value is accepted there", "warning"))
                dangling.append(node)
        findings += _pattern_findings(pointer, node)
    findings += _cycle_findings(schema)
    if _uses(schema, "unevaluatedProperties") and _uses(schema, "patternProperties"):
        findings.append(SchemaFinding("", "unevaluatedProperties together with patternProperties is not supported: its patterns would be matched by a backtracking engine; use additionalProperties"))
    if require_closed and schema.get("additionalProperties") is not False:
        findings.append(SchemaFinding("/additionalProperties", "must be false, so that unknown arguments are rejected"))
    if any(f.severity == "error" for f in findings):
        return None, findings
    if dangling:
        schema = _without_dangling_refs(schema)
    return schema, findings


def _dialect_findings(schema: dict[str, Any]) -> list[SchemaFinding]:
    """Every ``$schema`` must name a known draft: checked before anything that could look one up."""
    findings = []
    for pointer, node in _walk(schema, ""):
        if "$schema" in node:
            try:
                draft_of(node)
            except UnsupportedDialect as exc:
                findings.append(SchemaFinding(f"{pointer}/$schema", str(exc)))
    return findings


def _meta_findings(schema: dict[str, Any]) -> list[SchemaFinding]:
    draft = draft_of(schema)
    try:
        # The fast check only answers yes or no; on "no" (or any trouble), jsonschema says what is wrong.
        if _fast_meta is not None and _fast_meta.is_valid(schema):
            return []
    except Exception:  # a dialect the fast checker does not know offline: jsonschema, which never fetches, decides
        pass
    try:
        draft.check_schema(schema)
    except SchemaError as exc:
        pointer = "/" + "/".join(str(p) for p in exc.absolute_path) if exc.absolute_path else ""
        return [SchemaFinding(pointer, f"not valid {DRAFT_NAMES[draft]}: {exc.message}")]
    return []


def _pattern_findings(pointer: str, node: dict[str, Any]) -> list[SchemaFinding]:
    patterns = [(f"{pointer}/pattern", node["pattern"])] if isinstance(node.get("pattern"), str) else []
    if isinstance(node.get("patternProperties"), dict):
        patterns += [(f"{pointer}/patternProperties", name) for name in node["patternProperties"]]
    findings = []
    for where, pattern in patterns:
        try:
            compile_pattern(pattern)
        except PatternNotSupported as exc:
            findings.append(SchemaFinding(where, str(exc)))
    return findings


def _cycle_findings(schema: dict[str, Any]) -> list[SchemaFinding]:
    findings = []
    for cycle in ref_cycles(schema):
        route = " -> ".join(json_pointer(path) for path in cycle)
        findings.append(SchemaFinding(json_pointer(cycle[0])[1:], f"$ref cycle {route} never reaches a value, so no call could be checked; break the loop"))
    return findings


def _uses(schema: dict[str, Any], keyword: str) -> bool:
    return any(keyword in node for _, node in _walk(schema, ""))


def _without_dangling_refs(schema: dict[str, Any]) -> dict[str, Any]:
    repaired = copy.deepcopy(schema)
    for _, node in _walk(repaired, ""):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/") and not _resolves(repaired, ref):
            del node["$ref"]
            node.setdefault("description", f"(unresolved reference {ref})")
    return repaired
