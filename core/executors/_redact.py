"""Secrets never leave in a preview, a log line, telemetry or an error.

Two rules, applied to anything an executor shows: a value under a key whose
name says it is secret is replaced, and any string that contains a secret
the executor knows (a configured header or environment value) has it masked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

MASK = "***"
_SECRET_ENDINGS = ("authorization", "cookie", "token", "secret", "password", "passwd", "apikey", "privatekey", "credential", "credentials")
# Secrets shorter than this are not masked inside other strings: masking "a" would mangle everything.
_MIN_SECRET_LENGTH = 6


def is_secret_name(name: str) -> bool:
    """``Authorization``, ``api_key``, ``X-Api-Key``, ``clientSecret``; not ``max_tokens`` or ``token_count``."""
    squashed = re.sub(r"[^a-z0-9]", "", name.lower())
    return squashed.endswith(_SECRET_ENDINGS)


def redact(value: Any, secrets: Iterable[str] = ()) -> Any:
    """A copy of ``value`` with secrets masked."""
    return _redact(value, _known(secrets))


def _known(secrets: Iterable[str]) -> list[str]:
    """Each secret as it may appear in a message, longest first: as it is, without the blank around it (a token read
    from a file keeps its newline), and escaped the way a library quotes a value it refuses (``b'Bearer x\\n'``)."""
    forms = set()
    for secret in secrets:
        if isinstance(secret, str):
            forms.update((secret, secret.strip(), repr(secret)[1:-1]))
    return sorted((form for form in forms if len(form) >= _MIN_SECRET_LENGTH), key=len, reverse=True)


def _redact(value: Any, known: list[str]) -> Any:
    if isinstance(value, dict):
        return {k: (MASK if isinstance(k, str) and is_secret_name(k) and v not in (None, "") else _redact(v, known)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redact(v, known) for v in value]
    if isinstance(value, str):
        for secret in known:
            if secret in value:
                value = value.replace(secret, MASK)
    return value


def mask_known(value: Any, secrets: Iterable[str]) -> Any:
    """A copy of ``value`` with only the known secrets masked (for results, whose key names are the upstream's business)."""
    known = _known(secrets)
    return _mask(value, known) if known else value


def _mask(value: Any, known: list[str]) -> Any:
    if isinstance(value, dict):
        return {k: _mask(v, known) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_mask(v, known) for v in value]
    if isinstance(value, str):
        for secret in known:
            value = value.replace(secret, MASK)
    return value


# A URL's user-info (``scheme://user:password@host``): everything between "//" and the last "@" before the path.
_USER_INFO = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)(?P<userinfo>[^/?#\s@]*@)")
# A URL's query string: its values may be tokens (``?sslpassword=...``, ``?key=...``).
_QUERY = re.compile(r"(?P<url>[A-Za-z][A-Za-z0-9+.-]*://[^?#\s]*)\?[^#\s]*")
# ``--token=VALUE`` and ``-p=VALUE`` style flags that name a secret.
_FLAG_WITH_VALUE = re.compile(r"^(?P<flag>--?[A-Za-z0-9_.-]+)=(?P<value>.*)$", re.S)


def mask_command_line(command: str | None, args: Iterable[str] = (), secrets: Iterable[str] = ()) -> str:
    """A command line fit to show: URLs without user-info or query strings, secret flags' values masked
    (``--token X``, ``--api-key=X``), and the known secrets masked wherever they appear."""
    shown: list[str] = []
    hide_next = False
    for arg in (str(command), *args):
        if hide_next:
            shown.append(MASK)
            hide_next = False
            continue
        flag = _FLAG_WITH_VALUE.match(arg)
        if flag and _is_secret_flag(flag["flag"]):
            shown.append(f"{flag['flag']}={MASK}")
            continue
        if arg.startswith("-") and _is_secret_flag(arg):
            hide_next = True
        shown.append(mask_url_secrets(arg))
    return redact(" ".join(shown), secrets)


def mask_url_secrets(text: str, *, whole_query: bool = True) -> str:
    """``text`` with every URL's user-info and query string masked: ``postgresql://***@db/prod``, ``https://h/p?***``.
    With ``whole_query`` false only the values of secret-named parameters are (``?limit=5&api_key=***``): a request
    shown for confirmation keeps the parameters the person is asked about."""
    text = _USER_INFO.sub(lambda m: f"{m['scheme']}{MASK}@", text)
    if whole_query:
        return _QUERY.sub(lambda m: f"{m['url']}?{MASK}", text)
    return _QUERY.sub(lambda m: m[0].split("?", 1)[0] + "?" + _masked_parameters(m[0].split("?", 1)[1]), text)


def _masked_parameters(query: str) -> str:
    pairs = (pair.partition("=") for pair in query.split("&"))
    return "&".join(f"{name}{equals}{MASK if equals and is_secret_name(name) else value}" for name, equals, value in pairs)


def _is_secret_flag(flag: str) -> bool:
    return is_secret_name(flag.lstrip("-")) or flag.lstrip("-").lower().replace("-", "_") in ("key", "api_key", "pass", "pwd")
