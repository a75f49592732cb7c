"""A preview as a curl command line, for people who want to send the request themselves.

Secrets stay out: credentials come from the same environment variables
opgate reads (``-u "$TWILIO_ACCOUNT_SID:$TWILIO_AUTH_TOKEN"``, an API key
in the query as ``api_key=${KEY}`` inside a double-quoted URL), and any
other masked value stays masked.
"""

from __future__ import annotations

import shlex
from typing import Any
from urllib.parse import quote_plus

# httpx adds these; curl sets its own.
_CURL_SETS = frozenset({"host", "content-length", "accept-encoding", "connection", "user-agent", "accept"})


def _auth_words(auth: dict[str, Any]) -> tuple[list[str], str | None]:
    """curl words that send the credentials from the environment, and the header they replace."""
    env = [name for name in auth.get("from_env") or [] if name]
    kind = auth.get("kind")
    if kind == "basic" and env:
        return ["-u", f'"${env[0]}:${env[1] if len(env) > 1 else ""}"'], "authorization"
    if kind == "bearer" and env:
        return ["-H", f'"Authorization: Bearer ${env[0]}"'], "authorization"
    if kind == "header" and env and auth.get("key"):
        return ["-H", f'"{auth["key"]}: ${env[0]}"'], str(auth["key"]).lower()
    if kind == "cookie" and env and auth.get("key"):
        return ["-b", f'"{auth["key"]}=${env[0]}"'], "cookie"
    return [], None


def _url_word(url: str, auth: dict[str, Any]) -> str:
    """The URL as one shell word; an API key sent in the query is read from its environment variable."""
    env = [name for name in auth.get("from_env") or [] if name]
    key = auth.get("key")
    if auth.get("kind") != "query" or not env or not key:
        return shlex.quote(url)
    masked = f"{quote_plus(str(key))}=***"
    before, found, after = url.partition(masked)
    if not found:
        return shlex.quote(url)
    return f'"{_in_double_quotes(before)}{quote_plus(str(key))}=${{{env[0]}}}{_in_double_quotes(after)}"'


def _in_double_quotes(text: str) -> str:
    """Text that means itself inside a double-quoted shell word: ", \\, ` and $ escaped."""
    return "".join("\\" + c if c in '"\\`$' else c for c in text)


def curl_command(preview: dict[str, Any]) -> str:
    """``curl`` for a ``meta.preview`` of the HTTP executor."""
    auth = preview.get("auth") or {}
    auth_words, replaced = _auth_words(auth)
    words = ["curl", "-X", str(preview.get("method", "GET")), _url_word(str(preview.get("url", "")), auth)]
    for name, value in (preview.get("headers") or {}).items():
        if name.lower() in _CURL_SETS or name.lower() == replaced:
            continue
        words += ["-H", shlex.quote(f"{name}: {value}")]
    words += auth_words
    body = preview.get("body")
    if isinstance(body, str) and body:
        words += ["--data-binary", shlex.quote(body)]
    return " ".join(words)
