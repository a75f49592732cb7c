"""The ``[serve]`` table of ``opgate.toml``: how ``opgate serve --http`` admits callers.

Every key has a command-line flag of the same meaning; a flag given wins over
the file. See docs/serve.md, "A server for a team".
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from .._record import record

if TYPE_CHECKING:
    from ._check import _Checker

_HOST = re.compile(r"[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]")
SERVE_KEYS = ("auth", "public_url", "allowed_origins", "allowed_hosts", "rate_limit", "rate_burst")
DEFAULT_RATE_LIMIT = 20.0
"""Requests per second each authenticated caller may sustain."""
DEFAULT_RATE_BURST = 60
"""Requests a caller may send at once before the rate applies."""


@record(frozen=True)
class ServeConfig:
    """``auth``: ``None`` lets the server decide (on when the workspace has tokens)."""

    auth: bool | None = None
    public_url: str | None = None
    allowed_origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    rate_limit: float | None = None
    rate_burst: int | None = None


def is_public_url(v: Any) -> bool:
    """An http(s) URL with a host, and no query or fragment: where callers reach ``/mcp``."""
    if not isinstance(v, str):
        return False
    try:
        parts = urlsplit(v)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname) and not parts.query and not parts.fragment


def _is_origin(v: Any) -> bool:
    return is_public_url(v) and urlsplit(v).path in ("", "/")


def is_host_name(v: Any) -> bool:
    """A DNS name or bracketed IPv6 address, without scheme or port."""
    return isinstance(v, str) and bool(_HOST.fullmatch(v))


def check_serve(c: _Checker, raw: Any) -> ServeConfig:
    table = c.table(raw, "serve")
    c.unknown(table, SERVE_KEYS, "serve")
    auth = c.typed(table, "auth", "serve", lambda v: isinstance(v, bool), "true or false")
    public_url = c.typed(table, "public_url", "serve", is_public_url, "the https:// URL callers use to reach /mcp, such as 'https://opgate.example.com/mcp'")
    origins = c.typed(table, "allowed_origins", "serve", lambda v: isinstance(v, list) and all(_is_origin(o) for o in v), "an array of browser origins such as 'https://app.example.com' (scheme and host, no path)", [])
    hosts = c.typed(table, "allowed_hosts", "serve", lambda v: isinstance(v, list) and all(is_host_name(h) for h in v), "an array of host names such as 'opgate.example.com' (no scheme, no port)", [])
    rate = c.typed(table, "rate_limit", "serve", lambda v: isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 100_000, "requests per second per caller, from 0 (no limit) to 100000")
    burst = c.typed(table, "rate_burst", "serve", lambda v: isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 100_000, "an integer from 1 to 100000")
    return ServeConfig(
        auth=auth, public_url=public_url, allowed_origins=tuple(o.rstrip("/") for o in origins), allowed_hosts=tuple(hosts),
        rate_limit=None if rate is None else float(rate), rate_burst=burst,
    )
