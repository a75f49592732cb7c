"""Reading an OpenAPI document: JSON or YAML, its version, and its local references.

Loading never touches the network: only local references (``#/...``) are
followed, and a reference to another file or URL is reported, not fetched.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...jsonpointer import MISSING, resolve_local_ref

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


class OpenApiError(ValueError):
    """The file is not an OpenAPI 3.x document that opgate can read; the message says why."""


def looks_like_openapi(data: Any) -> bool:
    return isinstance(data, dict) and ("openapi" in data or "swagger" in data) and isinstance(data.get("paths"), dict)


def read_document_file(path: Path) -> Any:
    """The parsed content of a JSON or YAML file (YAML only when the name says so, or JSON fails)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() not in (".yaml", ".yml"):
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            if not re.match(r"\s*(openapi|swagger)\s*:", text):
                raise
    import yaml  # only YAML documents pay for the import

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise OpenApiError(f"not valid YAML{where}: {getattr(exc, 'problem', None) or exc}") from None
    except RecursionError:
        raise OpenApiError("not read: YAML nested too deeply") from None
    _check_expansion(data)
    return data


MAX_VALUES = 2_000_000
"""Most values a YAML document may hold once its aliases are expanded: 58 times Twilio's v2010 API (34,439), the
largest document here. Nine levels of nine aliases (a "billion laughs") hold 387 million, and walking them (every
schema is converted and written out) held the load for minutes and all the memory."""


def _check_expansion(data: Any) -> None:
    """Refuse a document whose aliases expand past :data:`MAX_VALUES` values (counted without expanding them)."""
    count, stack = 0, [data]
    while stack:
        node = stack.pop()
        count += 1
        if count > MAX_VALUES:
            raise OpenApiError(f"not read: its YAML aliases (&anchor / *alias) expand to more than {MAX_VALUES:,} values; write the shared parts once under components and $ref them")
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def check_version(data: dict[str, Any]) -> str:
    """The document's OpenAPI version (3.0.x or 3.1.x); anything else is an :class:`OpenApiError`."""
    if "swagger" in data:
        raise OpenApiError(
            f"this is a Swagger {data.get('swagger')} document; opgate reads OpenAPI 3.0 and 3.1. "
            "Convert it first (for example with swagger2openapi, or editor.swagger.io's 'Convert to OpenAPI 3')"
        )
    version = str(data.get("openapi", ""))
    if not re.match(r"3\.[01](\.|$)", version):
        raise OpenApiError(f"openapi version {version!r} is not supported; opgate reads 3.0 and 3.1")
    return version


@dataclass
class OpenApiDocument:
    """A parsed document and the way to follow its local references."""

    data: dict[str, Any]
    version: str
    source: str
    unfollowed: list[str] = field(default_factory=list)
    """Each ``$ref`` that led nowhere, in words: the loader reports those an operation met (they were read as ``{}``)."""

    @property
    def is_31(self) -> bool:
        return self.version.startswith("3.1")

    def deref(self, node: Any, *, seen: tuple[str, ...] = ()) -> Any:
        """``node`` itself, or what its ``$ref`` points at (following chains; a cycle or a miss gives ``{}``)."""
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            if ref in seen:
                self.unfollowed.append(f"$ref {ref!r} leads back to itself ({' -> '.join(seen)} -> {ref}) and never reaches a value")
                return {}
            seen = (*seen, ref)
            target = resolve_local_ref(self.data, ref) if ref.startswith("#") else MISSING
            if target is MISSING:
                where = "points at nothing in this document" if ref.startswith("#") else "points outside this document, which opgate never reads"
                self.unfollowed.append(f"$ref {ref!r} {where}")
                return {}
            node = target
        return node

    @property
    def servers(self) -> list[str]:
        return [s["url"] for s in self.data.get("servers") or [] if isinstance(s, dict) and isinstance(s.get("url"), str)]

    @property
    def security_schemes(self) -> dict[str, dict[str, Any]]:
        schemes = (self.data.get("components") or {}).get("securitySchemes") or {}
        return {name: self.deref(s) for name, s in schemes.items() if isinstance(self.deref(s), dict)}


def load_document(path: Path) -> OpenApiDocument:
    """Read and check one OpenAPI document; :class:`OpenApiError` says what is wrong."""
    try:
        data = read_document_file(path)
    except OSError as exc:
        raise OpenApiError(f"cannot read: {exc}") from None
    except UnicodeDecodeError:
        raise OpenApiError("not a text file (UTF-8 expected)") from None
    except json.JSONDecodeError as exc:
        raise OpenApiError(f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    if not isinstance(data, dict):
        raise OpenApiError("not an OpenAPI document: the top level is not an object")
    version = check_version(data)
    if not isinstance(data.get("paths"), dict):
        raise OpenApiError("not an OpenAPI document: it has no 'paths' object")
    return OpenApiDocument(data, version, str(path))
