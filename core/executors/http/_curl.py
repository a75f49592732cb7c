"""A preview as a curl command line, for people who want to send the request themselves.

Secrets stay out: credentials come from the same environment variables
opgate reads (``-u "$TWILIO_ACCOUNT_SID:$TWILIO_AUTH_TOKEN"``), and any
other masked value stays masked.
"""

from __future__ import annotations

import shlex
from typing import Any

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
    return [], None


def curl_command(preview: dict[str, Any]) -> str:
    """``curl`` for a ``meta.preview`` of the HTTP executor."""
    auth_words, replaced = _auth_words(preview.get("auth") or {})
    words = ["curl", "-X", str(preview.get("method", "GET")), shlex.quote(str(preview.get("url", "")))]
    for name, value in (preview.get("headers") or {}).items():
        if name.lower() in _CURL_SETS or name.lower() == replaced:
            continue
        words += ["-H", shlex.quote(f"{name}: {value}")]
    words += auth_words
    body = preview.get("body")
    if isinstance(body, str) and body:
        words += ["--data-binary", shlex.quote(body)]
    return " ".join(words)
