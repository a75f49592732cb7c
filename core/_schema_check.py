"""Checking a parameters schema once, when a catalogue loads.

A schema must be valid draft 2020-12 and may refer only to itself: a remote
``$ref`` would make validation reach the network. Two softer findings are
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

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from .jsonpointer import MISSING, resolve_local_ref

try:  # The Rust validator checks a schema against the metaschema ~300x faster.
    from jsonschema_rs import meta as _fast_meta
except ImportError:  # pragma: no cover - it is a declared dependency; this keeps a broken wheel from being fatal
    _fast_meta = None

FORMAT_CHECKER = Draft202012Validator.FORMAT_CHECKER
KNOWN_FORMATS = frozenset(FORMAT_CHECKER.checkers)
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
    findings: list[SchemaFinding] = []
    try:
        # The fast check only answers yes or no; on "no", jsonschema says what is wrong.
        if _fast_meta is None or not _fast_meta.is_valid(schema):
            Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        pointer = "/" + "/".join(str(p) for p in exc.absolute_path) if exc.absolute_path else ""
        findings.append(SchemaFinding(pointer, f"not valid draft 2020-12: {exc.message}"))
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
    if require_closed and schema.get("additionalProperties") is not False:
        findings.append(SchemaFinding("/additionalProperties", "must be false, so that unknown arguments are rejected"))
    if any(f.severity == "error" for f in findings):
        return None, findings
    if dangling:
        schema = _without_dangling_refs(schema)
    return schema, findings


def _without_dangling_refs(schema: dict[str, Any]) -> dict[str, Any]:
    repaired = copy.deepcopy(schema)
    for _, node in _walk(repaired, ""):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/") and not _resolves(repaired, ref):
            del node["$ref"]
            node.setdefault("description", f"(unresolved reference {ref})")
    return repaired
