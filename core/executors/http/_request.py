"""Turning a validated call into the exact ``httpx.Request`` an upstream gets.

The same request serves a run and a dry-run: a preview shows what httpx
encoded (method, URL with its query, headers, body bytes) and is never sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote


from ...catalog.openapi import BODY, CONTENT_STYLE, FILE, FORM, HEADER, PATH, QUERY, ArgumentPlace, HttpApi, HttpOperation
from ...exec._errors import InvalidArguments, PermissionDenied
from ._auth import AppliedAuth, Credentials

if TYPE_CHECKING:  # httpx loads rich at import; see _executor.py
    import httpx

# A preview shows bodies up to this size; beyond it, the size and the start.
PREVIEW_BODY_LIMIT = 20_000


def wire_text(value: Any) -> str:
    """A value as it travels in a path, query, header or form field."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return str(value)


# How an array that is not exploded is joined, by its parameter's style (read back the same way in _response.py).
ARRAY_DELIMITERS = {"form": ",", "simple": ",", "pipeDelimited": "|", "spaceDelimited": " "}


def _query_pairs(operation: HttpOperation, args: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The query's name and value pairs, each parameter written in its document's style."""
    pairs: list[tuple[str, str]] = []
    for place in operation.places_in(QUERY):
        if place.arg in args and args[place.arg] is not None:
            pairs.extend(_styled_pairs(place, args[place.arg]))
    return pairs


def _styled_pairs(place: ArgumentPlace, value: Any) -> list[tuple[str, str]]:
    style = place.style or "form"
    if style == CONTENT_STYLE:
        return [(place.name, wire_text(value))]
    if isinstance(value, dict):
        if style == "deepObject":
            return [(f"{place.name}[{key}]", wire_text(item)) for key, item in value.items()]
        if place.explode:
            return [(key, wire_text(item)) for key, item in value.items()]
        return [(place.name, ",".join(f"{key},{wire_text(item)}" for key, item in value.items()))]
    if isinstance(value, list):
        if place.explode:
            return [(place.name, wire_text(item)) for item in value]
        return [(place.name, ARRAY_DELIMITERS.get(style, ",").join(wire_text(item) for item in value))]
    return [(place.name, wire_text(value))]


def _simple(value: Any, explode: bool, encode: Callable[[str], str] = str) -> str:
    """A path or header value in the ``simple`` style: an array's items, or an object's members, joined by commas."""
    if isinstance(value, list):
        return ",".join(encode(wire_text(item)) for item in value)
    if isinstance(value, dict):
        members = (f"{encode(str(key))}={encode(wire_text(item))}" if explode else f"{encode(str(key))},{encode(wire_text(item))}" for key, item in value.items())
        return ",".join(members)
    return encode(wire_text(value))


def _segment(text: str) -> str:
    """Text as (part of) one path segment: every reserved character encoded, ``/`` included."""
    return quote(text, safe="")


_DOT_SEGMENTS = frozenset({".", ".."})


def _path(operation: HttpOperation, args: Mapping[str, Any]) -> str:
    path = operation.path
    for place in operation.places_in(PATH):
        value = args[place.arg]
        text = _segment(wire_text(value)) if place.style == CONTENT_STYLE else _simple(value, place.explode, _segment)
        filled = path.replace("{" + place.name + "}", text)
        if any(segment in _DOT_SEGMENTS for segment in filled.split("/")) and not any(segment in _DOT_SEGMENTS for segment in path.split("/")):
            # Servers and httpx read such a segment as "the parent folder" (WHATWG URLs even when it is
            # sent as %2E%2E): the request would reach another endpoint than this op's.
            message = f"{wire_text(value)!r} cannot be sent as the path parameter {place.name!r}: a path segment of dots means the folder above to servers, so the request would reach another endpoint"
            raise InvalidArguments(message, field_errors=[{"field": f"args.{place.arg}", "path": f"/{place.arg}", "code": "invalid_value", "message": message}])
        path = filled
    return path


def _files(operation: HttpOperation, args: Mapping[str, Any]) -> list[tuple[str, tuple[str, bytes]]]:
    files = []
    for place in operation.places_in(FILE):
        if place.arg not in args:
            continue
        path = Path(str(args[place.arg])).expanduser()
        try:
            files.append((place.name, (path.name, path.read_bytes())))
        except OSError as exc:
            message = f"cannot read the file to upload as {place.name!r}: {exc.strerror or exc}"
            raise InvalidArguments(message, field_errors=[{"field": f"args.{place.arg}", "path": f"/{place.arg}", "code": "file_unreadable", "message": message}]) from None
    return files


class RequestBuilder:
    """Builds the requests of one upstream: its base URL, fixed headers and credentials."""

    def __init__(self, api: HttpApi, client: httpx.Client, *, base_url: str | None, headers: Mapping[str, str], credentials: Credentials, idempotency_header: str | None):
        self.api = api
        self.client = client
        self.base_url = base_url
        self.headers = dict(headers)
        self.credentials = credentials
        self.idempotency_header = idempotency_header

    def _base(self, operation: HttpOperation) -> str:
        base = self.base_url or (operation.servers or self.api.servers or ("",))[0]
        if not base.startswith(("http://", "https://")) or "{" in base:
            raise PermissionDenied(
                f"the upstream {self.api.name!r} has no usable base URL (the document says {base or 'nothing'!r}); set base_url under [upstreams.{self.api.name}] in opgate.toml",
                upstream=self.api.name,
            )
        return base.rstrip("/")

    def build(self, operation: HttpOperation, args: Mapping[str, Any], idempotency_key: str | None = None) -> tuple[httpx.Request, AppliedAuth]:
        auth = self.credentials.apply(self.api.security_for(operation))
        headers = {**self.headers}
        for place in operation.places_in(HEADER):
            if args.get(place.arg) is not None:
                value = args[place.arg]
                headers[place.name] = wire_text(value) if place.style == CONTENT_STYLE else _simple(value, place.explode)
        headers.update(auth.headers)
        if idempotency_key and self.idempotency_header and not operation.is_read:
            headers[self.idempotency_header] = idempotency_key
        params = _query_pairs(operation, args) + list(auth.query.items())
        body: dict[str, Any] = {}
        form = {p.name: _form_value(args[p.arg]) for p in operation.places_in(FORM) if args.get(p.arg) is not None}
        files = _files(operation, args)
        body_place = operation.places_in(BODY)
        if files:
            body = {"data": form, "files": files}
        elif form or (operation.content_type or "").startswith("application/x-www-form-urlencoded"):
            body = {"data": form} if form else {}
        elif body_place and body_place[0].arg in args:
            value = args[body_place[0].arg]
            if operation.content_type and "json" in operation.content_type:
                body = {"json": value}
            else:
                body = {"content": value if isinstance(value, str | bytes) else wire_text(value)}
            if operation.content_type and "json" not in operation.content_type:
                headers.setdefault("Content-Type", operation.content_type)
        url = self._base(operation) + _path(operation, args)
        request = self.client.build_request(operation.method, url, params=params or None, headers=headers, **body)
        return request, auth


def _form_value(value: Any) -> Any:
    if isinstance(value, list):
        return [wire_text(v) for v in value]
    return wire_text(value)


def describe_request(request: httpx.Request, auth: AppliedAuth) -> dict[str, Any]:
    """The request as a preview shows it (the caller masks the secrets)."""
    content = request.read()
    preview: dict[str, Any] = {"method": request.method, "url": str(request.url), "headers": dict(request.headers)}
    if content:
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is not None and len(text) <= PREVIEW_BODY_LIMIT:
            preview["body"] = text
        else:
            preview["body"] = f"<{len(content)} bytes{'' if text is None else ' of text'}; too large to show>"
    if auth.env:
        preview["auth"] = {k: v for k, v in (("scheme", auth.scheme), ("kind", auth.kind), ("key", auth.key), ("from_env", list(auth.env))) if v}
    return preview
