"""The arguments of an HTTP op as one JSON Schema object, and where each argument goes.

Path, query and header parameters (auth headers excluded) become
properties; a JSON body is ``body``; form fields become properties of their
own; multipart files are given as local paths. A wire name that is not a
valid property name for every provider (Twilio's ``StartTime<``) gets a safe
alias, and its place maps the alias back.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from ._document import OpenApiDocument
from ._operation import BODY, CONTENT_STYLE, DEFAULT_STYLES, FILE, FORM, HEADER, PATH, QUERY, ArgumentPlace
from ._schema import SchemaConverter

# The strictest provider rule for property keys (Anthropic's).
SAFE_KEY = re.compile(r"^[a-zA-Z0-9_.-]{1,64}$")
_SYMBOL_WORDS = (("<=", "_on_or_before"), (">=", "_on_or_after"), ("<", "_before"), (">", "_after"), ("[]", ""), ("@", "_at_"))
# OpenAPI ignores these as parameters: the request's content and auth set them.
_IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})
_JSON_TYPE = re.compile(r"^application/([a-z0-9.+-]*\+)?json", re.I)


def safe_alias(name: str) -> str:
    """A property name every provider accepts, as close to ``name`` as possible (``StartTime<`` -> ``StartTime_before``)."""
    if SAFE_KEY.match(name):
        return name
    text = name
    for symbol, word in _SYMBOL_WORDS:
        text = text.replace(symbol, word)
    text = re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "arg"
    if len(text) > 64:
        text = text[:55] + "_" + hashlib.sha256(name.encode()).hexdigest()[:8]
    return text


def choose_media_type(content: dict[str, Any]) -> str | None:
    """JSON first, then form-encoded, then multipart, then whatever is listed first."""
    types = list(content)
    for wanted in (lambda t: bool(_JSON_TYPE.match(t)), lambda t: t.startswith("application/x-www-form-urlencoded"), lambda t: t.startswith("multipart/form-data")):
        for media in types:
            if wanted(media):
                return media
    return types[0] if types else None


def is_json_media(media: str | None) -> bool:
    return bool(media and _JSON_TYPE.match(media))


@dataclass
class ArgumentsBuilder:
    """Collects properties and places for one operation, keeping property names unique."""

    document: OpenApiDocument
    converter: SchemaConverter
    auth_headers: frozenset[str] = frozenset()
    properties: dict[str, Any] = field(default_factory=dict)
    required: list[str] = field(default_factory=list)
    places: list[ArgumentPlace] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def _free_name(self, wanted: str, location: str) -> str:
        name = wanted if wanted not in self.properties else f"{location}_{wanted}"
        n = 2
        while name in self.properties:
            name, n = f"{location}_{wanted}_{n}", n + 1
        return name

    def add(self, wire_name: str, location: str, schema: dict[str, Any], *, required: bool, explode: bool = True, style: str | None = None) -> None:
        arg = self._free_name(safe_alias(wire_name), location)
        if arg != wire_name:
            where = {PATH: "path parameter", QUERY: "query parameter", HEADER: "header", FORM: "form field", FILE: "file field", BODY: "body"}[location]
            schema = {**schema, "description": (schema.get("description", "") + f" (sent as the {where} `{wire_name}`)").strip()}
        self.properties[arg] = schema
        if required:
            self.required.append(arg)
        self.places.append(ArgumentPlace(arg, wire_name, location, explode, style))

    def add_parameter(self, parameter: dict[str, Any]) -> None:
        name, location = parameter.get("name"), parameter.get("in")
        if not isinstance(name, str) or location not in (PATH, QUERY, HEADER, "cookie"):
            return
        if location == HEADER and (name.lower() in _IGNORED_HEADERS or name.lower() in self.auth_headers):
            return
        if location == "cookie":
            self.notes.append(f"the cookie parameter {name!r} is not sent by opgate")
            return
        schema = self._parameter_schema(parameter)
        if location == PATH and schema.get("type") == "string" and "minLength" not in schema:
            # An empty value would leave an empty segment: another URL (``/items/`` for ``/items/{id}``), never this operation's.
            schema["minLength"] = 1
        if parameter.get("schema") is None and isinstance(parameter.get("content"), dict):
            style = CONTENT_STYLE  # a parameter described by a media type travels as that media (JSON), not in a style
        else:
            style = parameter.get("style") if isinstance(parameter.get("style"), str) else DEFAULT_STYLES[location]
        explode = parameter.get("explode", style == "form")
        self.add(name, location, schema, required=location == PATH or bool(parameter.get("required")), explode=bool(explode), style=style)

    def _parameter_schema(self, parameter: dict[str, Any]) -> dict[str, Any]:
        raw = parameter.get("schema")
        if raw is None and isinstance(parameter.get("content"), dict) and parameter["content"]:
            raw = next(iter(parameter["content"].values())).get("schema")
        schema = self.converter.convert(raw if raw is not None else {})
        schema = dict(schema) if isinstance(schema, dict) else {}
        description = parameter.get("description")
        if isinstance(description, str) and description.strip():
            schema["description"] = description.strip()
        if "example" in parameter and "examples" not in schema:
            schema["examples"] = [parameter["example"]]
        if parameter.get("deprecated"):
            schema["deprecated"] = True
        return schema

    def add_body(self, request_body: dict[str, Any]) -> str | None:
        """Add the request body's arguments; the media type it will be sent as."""
        content = request_body.get("content") if isinstance(request_body.get("content"), dict) else {}
        media = choose_media_type(content)
        if media is None:
            return None
        raw = (content.get(media) or {}).get("schema") or {}
        schema = self.converter.convert(raw)
        schema = schema if isinstance(schema, dict) else {}
        body_required = bool(request_body.get("required"))
        fields = schema.get("properties") if isinstance(schema.get("properties"), dict) else None
        if media.startswith(("application/x-www-form-urlencoded", "multipart/form-data")) and fields is not None:
            needed = set(schema.get("required") or [])
            multipart = media.startswith("multipart/")
            for name, sub in fields.items():
                sub = sub if isinstance(sub, dict) else {}
                if multipart and _is_binary(sub):
                    file_schema = {"type": "string", "description": (sub.get("description", "") + " The path of a local file to upload.").strip()}
                    self.add(name, FILE, file_schema, required=name in needed)
                else:
                    self.add(name, FORM, sub, required=name in needed)
            return media
        if not is_json_media(media) and not schema:
            schema = {"type": "string"}
        description = request_body.get("description")
        if isinstance(description, str) and description.strip() and "description" not in schema:
            schema = {**schema, "description": description.strip()}
        self.add("body", BODY, schema, required=body_required)
        return media

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "object", "properties": self.properties}
        if self.required:
            schema["required"] = self.required
        schema["additionalProperties"] = False
        if self.converter.defs:
            schema["$defs"] = dict(self.converter.defs)
        return schema


def _is_binary(schema: dict[str, Any]) -> bool:
    return (schema.get("format") == "binary" and schema.get("type") in ("string", None)) or "contentMediaType" in schema
