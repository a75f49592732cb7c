"""A call-log entry's argument columns: the digest of the whole arguments and a bounded copy of them.

The copy is what the history shows and what a replay starts from; the bound
keeps any caller (even one whose calls are refused) from growing the log
without limit. See :mod:`._telemetry` for the log itself.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .._call_log_row import ARGS_AT, CALL_ROW_KEYS, DIGEST_OF_TEXT, CallLogRow
from .._json_encoder import JsonText, encoder_made_once
from ..safe_json import is_clean_text, scrub_text

_HEAD_CHARS = 200

# exec_row spells an exec's row in this order: the call's first nine values, the three argument columns, the rest.
assert ARGS_AT == 9 and len(CALL_ROW_KEYS) == 15 and CALL_ROW_KEYS[5] == "ok" and CALL_ROW_KEYS[7] == "dry_run"

_FLAT = (str, int, float, bool, type(None))
_SORTED_JSON = encoder_made_once(sort_keys=True)
"""``json.dumps(value, sort_keys=True)`` of flat arguments (which cannot hold a cycle), without making an encoder on every call."""


def sorted_args_text(args: dict[str, Any]) -> str:
    """``json.dumps(args, sort_keys=True)`` of flat arguments (:func:`plainly_writable`, :func:`json_safe_numbers`).

    The C encoder sorts a list of the items and escapes every string
    through its accumulator, about 6 k instructions for ``{"task_id": ...}``.
    Text that JSON writes as it is between its quotes (printable ASCII but
    the quote and the backslash) and ints (exact type) are joined here for
    less than half that; anything else (a float, ``true``, ``null``, text to
    escape) goes to the encoder. tests/exec/test_call_log_rows.py compares
    the two on every ASCII character.
    """
    if len(args) == 1:  # a get's {"<kind>_id": "..."}: no list to sort or join
        [(name, value)] = args.items()
        if type(value) is str:
            probe = name + value
            if '"' in probe or "\\" in probe or not (probe.isascii() and probe.isprintable()):
                return _SORTED_JSON(args)
            return f'{{"{name}": "{value}"}}'
    names = sorted(args)
    probe = "".join(names)
    parts = []
    for name in names:
        value = args[name]
        kind = type(value)
        if kind is str:
            probe += value
            parts.append(f'"{name}": "{value}"')
        elif kind is int:
            parts.append(f'"{name}": {value}')
        else:
            return _SORTED_JSON(args)
    if '"' in probe or "\\" in probe or not (probe.isascii() and probe.isprintable()):
        return _SORTED_JSON(args)
    return "{" + ", ".join(parts) + "}"


def plainly_writable(args: Any) -> bool:
    """Whether ``args`` is a flat object of plain values whose text all encodes as UTF-8: nothing for ``scrub_text`` to do."""
    if type(args) is not dict:
        return False
    for name, value in args.items():
        if type(name) is not str or not (name.isascii() or is_clean_text(name)):
            return False
        kind = type(value)
        if kind is str:
            if not (value.isascii() or is_clean_text(value)):
                return False
        elif kind not in _FLAT:
            return False
    return True


_INT_DIGITS_SAFE = 10**1000
"""Far below the digits past which Python refuses to write an int as text (4,300 by default)."""


def json_safe_numbers(args: dict[str, Any]) -> bool:
    """Whether every number among flat ``args`` can surely be written as JSON text (a huge int raises; NaN and the infinities are no JSON)."""
    for value in args.values():
        kind = type(value)
        if (kind is int and not -_INT_DIGITS_SAFE < value < _INT_DIGITS_SAFE) or (kind is float and value - value != 0.0):
            return False
    return True


def kept_args(args: Any, chars: int) -> tuple[dict | None, str, bool]:
    """``(copy to keep, digest of the whole, whether the copy was cut)`` for a call's arguments.

    The copy is a fresh object (the caller may change its own later) of at
    most about ``chars`` characters of JSON: arguments that fit are kept
    whole; past that, each top-level value that does not fit is replaced by a
    note of its size (a string keeps its first 200 characters).
    """
    text = json.dumps(args, sort_keys=True, default=str)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    if not isinstance(args, dict):
        return None, digest, False
    if len(text) <= chars:
        return json.loads(text), digest, False
    return _shortened(args, chars), digest, True


def _shortened(args: dict, chars: int) -> dict:
    kept: dict[str, Any] = {}
    room = chars - 64  # keeps space for the closing note
    for key, value in args.items():
        name = str(key)
        piece = json.dumps(value, default=str)
        if len(name) + len(piece) + 6 <= room:
            kept[name] = json.loads(piece)
        elif isinstance(value, str):
            kept[name] = f"{value[:_HEAD_CHARS]}…[{len(value) - _HEAD_CHARS} more characters not kept]"
        else:
            kept[name] = f"…[{len(piece)} characters of JSON not kept]"
        room -= len(name) + len(json.dumps(kept[name])) + 6
        if room < 0:
            del kept[name]
            kept["…"] = f"{len(args) - len(kept)} more arguments not kept"
            break
    return kept


def exec_row(values: tuple[Any, ...], chars: int) -> dict[str, Any] | tuple[Any, ...]:
    """The stored row of an exec's queued entry: ``call_row``'s values, the copy of its plain arguments last.

    The arguments' columns are made here, by the call log's writer, not on
    the call's path: the arguments are flat and plain (:func:`plainly_writable`
    and :func:`json_safe_numbers`, checked at call time) and were copied at
    call time, so their values are immutable and the columns come out the
    same whenever they are made. The whole entry is one tuple, so the queue
    keeps one object per call for the collector, not three.

    The row is a plain ``tuple`` when it is complete (no ``detail``, the
    common case): apsw binds a plain tuple as it is, while for a subclass it
    first copies the values into a list (1.5 k instructions a row). A row
    whose ``detail`` the store must still encode is a :class:`CallLogRow`.
    """
    args = values[15]
    text = sorted_args_text(args)
    if len(text) <= chars:
        # The digest's text is the stored copy too (the store writes it as it is): one encoding, not two.
        # Its digest is left for whoever reads the row (DIGEST_OF_TEXT): nothing on the call's path needs it.
        # Spelled value by value (see the assert above): slices and unpacking built three lists per entry.
        detail = values[14]
        row = (values[0], values[1], values[2], values[3], values[4], 1 if values[5] else 0, values[6], 1 if values[7] else 0,
               values[8], DIGEST_OF_TEXT, text, 0,  # a stored row's args is its text already
               values[9], values[10], values[11], values[12], values[13], detail)
        return row if detail is None else CallLogRow(row)
    return {**args_columns(args, chars), **dict(zip(CALL_ROW_KEYS, values))}


class ArgsLater:
    """An entry whose argument columns are made when the entry is written, as :func:`exec_row` does for an exec's.

    ``row`` is the entry's other columns, a dict; ``args``, flat plain
    arguments copied at call time (see :meth:`CallLog.with_args`).
    """

    __slots__ = ("args", "row")

    def __init__(self, row: dict[str, Any], args: dict[str, Any]):
        self.row = row
        self.args = args

    def entry(self, chars: int) -> dict[str, Any]:
        args = self.args
        text = sorted_args_text(args)
        if len(text) > chars:
            return {**args_columns(args, chars), **self.row}
        return {"args_digest": DIGEST_OF_TEXT, "args": JsonText(text), "args_truncated": False, **self.row}


def args_columns(args: Any, chars: int) -> dict[str, Any]:
    """The entry's columns for a call's arguments: the digest of the whole, and a copy of at most about ``chars`` characters that can be written."""
    if plainly_writable(args) and json_safe_numbers(args):
        # Flat values are immutable: a shallow copy is the copy json.loads would make (and the
        # store writes the keys sorted either way), without parsing the text back.
        text = _SORTED_JSON(args)
        if len(text) <= chars:
            return {"args_digest": hashlib.sha256(text.encode()).hexdigest()[:16], "args": dict(args), "args_truncated": False}
    else:
        args = scrub_text(args)  # refused arguments are logged too: text that is not Unicode, nested too deeply or an int too long to write must not stop that
    kept, digest, truncated = kept_args(args, chars)
    return {"args_digest": digest, "args": kept, "args_truncated": truncated}
