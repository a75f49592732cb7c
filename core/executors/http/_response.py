"""What an upstream answered, as a result or as a typed failure.

2xx (and a redirect, not followed): JSON becomes the result, other content
types become text with their type, and pagination (``Link`` headers, Twilio's ``next_page_uri``) is
surfaced as the way to get more. Anything else maps to an envelope code by
the table below, with the status and the upstream's body (capped) in the
error's details.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit


from ...catalog.openapi import QUERY, ArgumentPlace, HttpOperation
from ...exec._errors import ConflictError, InternalError, InvalidArguments, NotFoundError, OpError, PermissionDenied
from .._base import Outcome
from ._request import ARRAY_DELIMITERS

if TYPE_CHECKING:  # httpx loads rich at import; see _executor.py
    import httpx

# The upstream body kept in an error's details.
ERROR_BODY_LIMIT = 2_000
# Response headers worth showing with a result.
_SHOWN_HEADERS = ("content-type", "content-length", "location", "etag", "last-modified", "link", "retry-after", "x-request-id", "request-id", "twilio-request-id", "x-ratelimit-remaining")
_PAGE_KEYS = ("next_page_uri", "next_page_url", "next")

STATUS_ERRORS: dict[int, type[OpError]] = {
    400: InvalidArguments, 422: InvalidArguments,
    401: PermissionDenied, 403: PermissionDenied,
    404: NotFoundError,
    409: ConflictError, 412: ConflictError,
}


def _body(response: httpx.Response) -> Any:
    """JSON when the response says so (and is), otherwise text with its content type; ``None`` for no body."""
    if not response.content:
        return None
    content_type = response.headers.get("content-type", "")
    if "json" in content_type:
        try:
            return response.json()
        except (ValueError, RecursionError):  # not JSON, or nested past the parser: shown as the text it is
            pass
    try:
        text = response.content.decode(response.encoding or "utf-8")
    except (UnicodeDecodeError, LookupError):
        return {"content_type": content_type, "bytes": len(response.content), "text": None}
    return {"content_type": content_type or "text/plain", "text": text}


def http_meta(response: httpx.Response) -> dict[str, Any]:
    headers = {k: v for k, v in response.headers.items() if k.lower() in _SHOWN_HEADERS}
    return {"status": response.status_code, "reason": response.reason_phrase, "headers": headers}


def _typed(text: str, schema: Any) -> Any:
    """A query string value as the argument's schema wants it (``PageSize=50`` is an integer)."""
    kind = schema.get("type") if isinstance(schema, dict) else None
    kinds = kind if isinstance(kind, list) else [kind]
    try:
        if "integer" in kinds:
            return int(text)
        if "number" in kinds:
            return float(text)
    except ValueError:
        return text
    if "boolean" in kinds and text in ("true", "false"):
        return text == "true"
    return text


_DEEP_MEMBER = re.compile(r"^(.+)\[([^\[\]]+)\]$")


def _is_array(schema: Any) -> bool:
    kind = schema.get("type") if isinstance(schema, dict) else None
    return kind == "array" or (isinstance(kind, list) and "array" in kind)


def _query_value(place: ArgumentPlace, texts: list[str], schema: Any) -> Any:
    """The argument a parameter's query text stands for, read in the parameter's style (the inverse of the request's)."""
    if not _is_array(schema):
        return _typed(texts[-1], schema)
    if not place.explode and len(texts) == 1:
        texts = texts[0].split(ARRAY_DELIMITERS.get(place.style or "form", ",")) if texts[0] else []
    return [_typed(text, schema.get("items")) for text in texts]


def _next_args(operation: HttpOperation, args: Mapping[str, Any], next_url: str, properties: Mapping[str, Any]) -> dict[str, Any] | None:
    """The arguments of the next page's call, when its URL only changes query parameters the op has."""
    try:
        pairs = parse_qsl(urlsplit(next_url).query)
    except ValueError:  # the server's link is no URL (an unclosed IPv6 bracket): shown as sent, with no arguments made from it
        return None
    places = {p.name: p for p in operation.places_in(QUERY)}
    texts: dict[str, list[str]] = {}
    members: dict[str, dict[str, Any]] = {}
    for name, value in pairs:
        deep = _DEEP_MEMBER.match(name)
        if name not in places and deep and getattr(places.get(deep.group(1)), "style", None) == "deepObject":
            place = places[deep.group(1)]
            member_schema = ((properties.get(place.arg) or {}).get("properties") or {}).get(deep.group(2))
            members.setdefault(place.arg, {})[deep.group(2)] = _typed(value, member_schema)
        elif name in places:
            texts.setdefault(name, []).append(value)
        else:
            return None
    if not texts and not members:
        return None
    found = {places[name].arg: _query_value(places[name], values, properties.get(places[name].arg)) for name, values in texts.items()}
    return {**args, **found, **members}


def pagination(response: httpx.Response, body: Any, operation: HttpOperation, args: Mapping[str, Any], properties: Mapping[str, Any]) -> dict[str, Any] | None:
    next_url = None
    links = response.links
    if "next" in links and links["next"].get("url"):
        next_url = links["next"]["url"]
    elif isinstance(body, dict):
        for key in _PAGE_KEYS:
            if isinstance(body.get(key), str) and body[key]:
                next_url = body[key]
                break
    if not next_url:
        return None
    page: dict[str, Any] = {"next": next_url}
    next_args = _next_args(operation, args, next_url, properties)
    if next_args is not None:
        page["next_args"] = next_args
        page["how"] = "call the same op with next_args to get the next page"
    return page


def success_outcome(response: httpx.Response, operation: HttpOperation, args: Mapping[str, Any], properties: Mapping[str, Any]) -> Outcome:
    """The result and ``meta.http`` (status, headers); ``meta.pagination`` when there is more.

    A redirect is an answer too (an API that keeps a file elsewhere says where
    with 307): it is not followed, since the credentials must not travel to
    wherever it points, and a warning says where it points.
    """
    body = _body(response)
    meta: dict[str, Any] = {"http": http_meta(response)}
    page = pagination(response, body, operation, args, properties)
    if page:
        meta["pagination"] = page
    warnings = []
    if response.is_redirect:
        # A 3xx without a Location (a mock server, a broken proxy) points nowhere: said, not a KeyError.
        where = response.headers.get("location")
        pointing = f"pointing at {where}" if where else "without a Location header saying where"
        warnings.append(f"{operation.target} answered {response.status_code} {response.reason_phrase}, {pointing}; opgate does not follow redirects (the upstream's credentials stay with it)")
    return Outcome(body, meta, warnings)


def _capped(response: httpx.Response) -> Any:
    body = _body(response)
    text = json.dumps(body, ensure_ascii=False, default=str) if not isinstance(body, str) else body
    if len(text) <= ERROR_BODY_LIMIT:
        return body
    return text[:ERROR_BODY_LIMIT] + f"… [cut at {ERROR_BODY_LIMIT} of {len(text)} characters]"


def _server_message(body: Any) -> str | None:
    if isinstance(body, dict):
        for key in ("message", "detail", "title", "error_description", "error"):
            value = body.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()
            if isinstance(value, dict) and isinstance(value.get("message"), str):
                return value["message"]
        if isinstance(body.get("text"), str) and body["text"].strip():
            return body["text"].strip()[:300]
    return None


def _field_errors(body: Any) -> list[dict[str, Any]]:
    """Field details the server gave: Prism's ``validation`` list, RFC 7807 ``errors``, or ``{field: message}``."""
    if not isinstance(body, dict):
        return []
    rows: list[dict[str, Any]] = []
    for item in body.get("validation") or body.get("errors") or body.get("invalid_params") or []:
        if not isinstance(item, dict):
            continue
        location = item.get("location") or item.get("loc") or item.get("path") or item.get("name") or item.get("field") or []
        parts = [str(p) for p in (location if isinstance(location, list) else [location])]
        rows.append({"field": ".".join(parts) or "request", "code": str(item.get("code", "upstream_rejected")), "message": str(item.get("message") or item.get("msg") or item.get("detail") or item)})
    return rows


def failure(response: httpx.Response, operation: HttpOperation, attempts: int) -> OpError:
    """The typed failure for a non-2xx answer."""
    status = response.status_code
    body = _capped(response)
    server_says = _server_message(_body(response))
    message = f"{operation.target} answered {status} {response.reason_phrase}" + (f": {server_says}" if server_says else "")
    details: dict[str, Any] = {"http": {**http_meta(response), "body": body}, "status": status}
    if attempts > 1:
        details["attempts"] = attempts
    error_class = STATUS_ERRORS.get(status)
    if error_class is InvalidArguments:
        return InvalidArguments(message + ". Fix the arguments and call again.", field_errors=_field_errors(_body(response)), **details)
    if error_class is PermissionDenied:
        return PermissionDenied(message + ". Check the upstream's credentials in opgate.toml (the environment variables it names).", **details)
    if error_class is not None:
        return error_class(message, **details)
    retry_after = response.headers.get("retry-after")
    if retry_after:
        details["retry_after"] = retry_after
    retryable = status == 429 or status >= 500
    return InternalError(message + (". Retry later." if retryable else "."), retryable=retryable, **details)
