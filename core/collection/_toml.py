"""A small TOML writer for saved calls: one argument per line, so a change reads well in a diff.

Only what a saved call holds is written: strings, whole numbers, floats,
booleans, lists and tables (nested tables inline). TOML has no null and
only 64-bit integers; :func:`representable` tells the caller to fall back
to JSON text for arguments that hold either.
"""

from __future__ import annotations

import math
import re
from typing import Any

_BARE_KEY = re.compile(r"^[A-Za-z0-9_\-]+$")
_INT_RANGE = (-(2**63), 2**63 - 1)
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def representable(value: Any) -> bool:
    """Whether ``value`` can be written as TOML (no null, no integer outside 64 bits, only string keys)."""
    stack = [value]
    while stack:
        node = stack.pop()
        if node is None:
            return False
        if isinstance(node, int) and not isinstance(node, bool) and not _INT_RANGE[0] <= node <= _INT_RANGE[1]:
            return False
        if isinstance(node, dict):
            if not all(isinstance(k, str) for k in node):
                return False
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif not isinstance(node, (str, int, float, bool)):
            return False
    return True


def _char(c: str) -> str:
    if c in _ESCAPES:
        return _ESCAPES[c]
    if ord(c) < 0x20 or ord(c) == 0x7F:
        return f"\\u{ord(c):04X}"
    return c


def string(text: str) -> str:
    """A TOML basic string (one line)."""
    return '"' + "".join(_char(c) for c in text) + '"'


def multiline(text: str) -> str:
    """A TOML multi-line basic string, for notes that span lines."""
    body = "".join("\n" if c == "\n" else _char(c) for c in text).replace('"""', '""\\"')
    return '"""\n' + body + '"""'


def key(name: str) -> str:
    return name if _BARE_KEY.fullmatch(name) else string(name)


def value(node: Any) -> str:
    """``node`` as an inline TOML value (tables inline, on one line)."""
    if isinstance(node, bool):
        return "true" if node else "false"
    if isinstance(node, int):
        return str(node)
    if isinstance(node, float):
        if math.isnan(node):
            return "nan"
        if math.isinf(node):
            return "inf" if node > 0 else "-inf"
        return repr(node)
    if isinstance(node, str):
        return string(node)
    if isinstance(node, list):
        return "[" + ", ".join(value(item) for item in node) + "]"
    if isinstance(node, dict):
        return "{" + ", ".join(f"{key(k)} = {value(v)}" for k, v in node.items()) + "}" if node else "{}"
    raise TypeError(f"TOML cannot hold a {type(node).__name__}")


def table(name: str, mapping: dict[str, Any]) -> list[str]:
    """``[name]`` and one ``key = value`` line per entry."""
    return [f"[{name}]", *(f"{key(k)} = {value(v)}" for k, v in mapping.items())]
