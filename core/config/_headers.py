"""What an HTTP header configured for an upstream may hold: checked when the configuration is read.

The HTTP client refuses a bad header only at the first call, and quotes the
value while refusing it ("Illegal header value b'Bearer ...\\n'"): for an
Authorization header that value is a secret. So the check is made once,
here, and its problem names the header and the position, never the value.
"""

from __future__ import annotations

import re

_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_VALUE = re.compile(r"[\t\x20-\x7e]*")


def header_problem(name: str, value: str) -> str | None:
    """Why ``name: value`` cannot be sent, or None when it can."""
    if not _NAME.fullmatch(name):
        return "not a header name: letters, digits and !#$%&'*+-.^_`|~ only"
    if _VALUE.fullmatch(value):
        return None
    at = next(i for i, ch in enumerate(value) if not _VALUE.fullmatch(ch))
    why = "a line break (a value read from a file keeps its last newline)" if value[at] in "\r\n" else f"the character U+{ord(value[at]):04X}"
    return f"a header value holds {why} at position {at}; only printable ASCII, spaces and tabs can be sent"
