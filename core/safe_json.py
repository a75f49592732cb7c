"""Reading JSON that comes from outside: bounded in size and nesting, and text that can be stored.

Every door JSON comes in by (the CLI's ``--args`` and ``key=value`` values,
batch files, the REPL, the MCP transports, catalogue files, arguments handed
to :meth:`Gateway.exec`) goes through here, so each has the same limits and
the same kind of error. Python's parser recurses once per level: a line of
ten thousand ``[`` raises ``RecursionError``, which is no ``ValueError`` and
used to end whatever read it. Deep values also make every later walk over
them (validation, rendering, storing) recurse, so depth is bounded by the
value, not only by the parser.

A lone surrogate (``"\\ud800"`` in JSON, or a command-line word that was not
UTF-8, which Python decodes to ``\\udcXX``) is a string no UTF-8 store or
transport can write; it is rejected here with its path, before anything runs.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any

MAX_DEPTH = 64
"""How deeply arrays and objects may nest in a value: far beyond any real argument, far below the parser's recursion."""

MAX_CHARS = 4 * 1024 * 1024
"""The longest JSON text read from an argument, a line or a batch (the MCP transports' 4 MiB)."""

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

INT_DIGITS = 1000
"""The most digits an integer from outside may have: JSON text never holds more than Python reads (4,300 by default),
but a caller of :meth:`Gateway.exec` can hand any int, and one past Python's limit cannot be written as text."""
_INT_BOUND = 10**INT_DIGITS


def _too_long_int(value: Any) -> bool:
    return type(value) is int and not -_INT_BOUND < value < _INT_BOUND


def _not_finite(value: Any) -> bool:
    return type(value) is float and not math.isfinite(value)


_JSON_SPELLING = {math.inf: "Infinity", -math.inf: "-Infinity"}


class JsonInputError(ValueError):
    """JSON from outside that cannot be used: not JSON, too large, too deep, or text that is not Unicode.

    ``code`` is ``not_json``, ``too_large``, ``too_deep``, ``invalid_text``, ``invalid_number`` or ``invalid_type``;
    ``path`` is where in the value the problem is (keys and indices), when known.
    """

    def __init__(self, message: str, *, code: str, path: tuple[str | int, ...] = ()):
        super().__init__(message)
        self.message = message
        self.code = code
        self.path = path


def _children(node: Any) -> Iterator[tuple[str | int, Any]]:
    if isinstance(node, dict):
        yield from node.items()
    else:  # a list, or a tuple (a Python caller's, written as an array)
        yield from enumerate(node)


# What a value handed to Gateway.exec may hold below its containers: what JSON can carry (a bool is an int).
_JSON_LEAVES = (str, int, float, type(None))


def dotted(path: tuple[str | int, ...], root: str = "") -> str:
    """``("moves", 2, "plan_id")`` as ``moves[2].plan_id`` (after ``root``, when given)."""
    text = root
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "the value"


def check_value(value: Any, *, max_depth: int = MAX_DEPTH, root: str = "", text: bool = True) -> None:
    """Raise :class:`JsonInputError` if ``value`` nests deeper than ``max_depth`` or (with ``text``) holds what JSON cannot carry:
    a lone surrogate, an integer too long to write, NaN or an infinity, a name that is not text, a Python value that is no JSON value.

    The walk is iterative, so a value too deep for recursion is measured too.
    """
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, str):
            if text and _LONE_SURROGATE.search(node):
                raise JsonInputError(f"{dotted(path, root)} holds text that is not valid Unicode (a lone surrogate, or bytes that were not UTF-8); send UTF-8 text", code="invalid_text", path=path)
            continue
        if not isinstance(node, (dict, list, tuple)):
            if text and not isinstance(node, _JSON_LEAVES):
                # A Python caller's set or bytes: the store's JSON encoder raised on it, and the call ended as INTERNAL.
                raise JsonInputError(f"{dotted(path, root)} is a Python {type(node).__name__}, which is no JSON value; send text, a number, true, false, null, a list or an object", code="invalid_type", path=path)
            if text and _too_long_int(node):
                raise JsonInputError(f"{dotted(path, root)} is an integer of more than {INT_DIGITS:,} digits; send a shorter number, or the digits as text", code="too_large", path=path)
            if text and _not_finite(node):
                # Python's parser reads NaN and Infinity, but they are no JSON: a store's JSON check, an answer or an upstream would choke on them.
                raise JsonInputError(f"{dotted(path, root)} is {_JSON_SPELLING.get(node, 'NaN')}, which is no JSON number; send a finite number", code="invalid_number", path=path)
            continue
        if len(path) >= max_depth:
            raise JsonInputError(f"{dotted(path, root)} is nested more than {max_depth} levels deep; flatten the value", code="too_deep", path=path)
        for key, child in _children(node):
            if text and type(node) is dict and not isinstance(key, str):
                raise JsonInputError(f"a name in {dotted(path, root)} is a Python {type(key).__name__}, not text; JSON names objects' members with text", code="invalid_type", path=path)
            if text and isinstance(key, str) and _LONE_SURROGATE.search(key):
                raise JsonInputError(f"a name in {dotted(path, root)} is not valid Unicode (a lone surrogate, or bytes that were not UTF-8); send UTF-8 text", code="invalid_text", path=path)
            stack.append((child, (*path, key)))


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH, max_chars: int | None = MAX_CHARS, what: str = "the JSON", check_text: bool = True) -> Any:
    """``json.loads``, bounded: a :class:`JsonInputError` for anything that cannot be used, never another exception.

    ``what`` names the input in messages (``the arguments``, ``the batch file``).
    Bytes that are not UTF-8 become lone surrogates and are reported as
    ``invalid_text`` with their path, like any other text that is not Unicode;
    ``check_text=False`` leaves that to a later check that knows the field
    (a transport hands the arguments to exec, which names ``args.title``).
    """
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", errors="surrogateescape")
    if max_chars is not None and len(text) > max_chars:
        raise JsonInputError(f"{what}: {len(text):,} characters long, over the limit of {max_chars:,}", code="too_large")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonInputError(f"{what}: not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}", code="not_json") from None
    except RecursionError:
        raise JsonInputError(f"{what}: nested more than {max_depth} levels deep; flatten it", code="too_deep") from None
    except ValueError as exc:  # an integer literal too long to convert, for one
        raise JsonInputError(f"{what}: not valid JSON: {exc}", code="not_json") from None
    try:
        check_value(value, max_depth=max_depth, text=check_text)
    except JsonInputError as exc:
        raise JsonInputError(f"{what}: {exc.message}", code=exc.code, path=exc.path) from None
    return value


def is_clean_text(text: str) -> bool:
    """Whether ``text`` can be encoded as UTF-8 (holds no lone surrogate)."""
    return _LONE_SURROGATE.search(text) is None


TOO_DEEP_NOTE = f"(a value nested more than {MAX_DEPTH} levels deep, not kept)"


def scrub_text(value: Any, *, max_depth: int = MAX_DEPTH, too_deep: Any = TOO_DEEP_NOTE) -> Any:
    """``value`` with every lone surrogate replaced by U+FFFD and every name made text, for logs and answers that must always be writable.

    A value nested deeper than ``max_depth`` (arguments refused for it) is
    not walked: ``too_deep`` stands in for it.
    """
    try:
        check_value(value, max_depth=max_depth, text=False)
    except JsonInputError:
        return too_deep
    return _scrubbed(value)


def _scrubbed(value: Any) -> Any:
    if _too_long_int(value):
        return f"(an integer of {value.bit_length() * 30103 // 100000 + 1:,} digits, not kept)"
    if _not_finite(value):
        return _JSON_SPELLING.get(value, "NaN")  # as text: the log and the answer stay JSON
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        # A name that is not text (a Python caller's 1, None or tuple) is written as text: JSON cannot carry it, and sorting mixed names raises.
        return {_scrubbed(k) if isinstance(k, str) else _scrubbed(str(k)): _scrubbed(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_scrubbed(v) for v in value]
    return value


__all__ = ["MAX_CHARS", "MAX_DEPTH", "TOO_DEEP_NOTE", "JsonInputError", "check_value", "dotted", "is_clean_text", "loads", "scrub_text"]
