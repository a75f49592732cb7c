"""The call log's columns, and a row of them made already (an exec's, by the call log's writer).

Here rather than in the store so that the call log (loaded by every command,
help and search included) can make a row without importing the store.
"""

from __future__ import annotations

from hashlib import sha256

CALL_LOG_COLUMNS = ("ts", "trace_id", "op", "tool_name", "duration_ms", "ok", "code", "dry_run",
                    "caller", "args_digest", "args", "args_truncated",
                    "kind", "session_id", "chain_id", "parent_id", "lane", "detail")
"""The call_log table's columns (``seq`` aside), in the order every row of it is spelled."""

ARGS_AT = CALL_LOG_COLUMNS.index("args_digest")
"""Where the three argument columns (digest, kept copy, whether it was cut) start."""

CALL_ROW_KEYS = (*CALL_LOG_COLUMNS[:ARGS_AT], *CALL_LOG_COLUMNS[ARGS_AT + 3:])
"""The columns a call's own values fill (``call_row``), the argument columns being the log's."""

assert CALL_LOG_COLUMNS[ARGS_AT:ARGS_AT + 3] == ("args_digest", "args", "args_truncated")

DIGEST_OF_TEXT = ""
"""The stored ``args_digest`` of a row whose ``args`` is the digest's own text (arguments kept whole, as their
canonical JSON): the digest is that text's, worked out by whoever reads the row (:func:`args_digest_of`), not
on every call logged (a sha256 cost the writer about 5 k instructions an entry)."""


def args_digest_of(text: str) -> str:
    """The digest of arguments whose canonical JSON text is ``text``: the first 16 hex digits of its sha256."""
    return sha256(text.encode()).hexdigest()[:16]


class CallLogRow(tuple):
    """The values of :data:`CALL_LOG_COLUMNS` in order, as the store writes them (flags 0 or 1, ``args`` as JSON text), ``detail`` aside.

    ``args`` is plain ``str`` (a row is stored as it is, so no ``JsonText``
    mark is needed). ``detail`` (the last value) is still a dict: the store
    encodes it as it encodes every entry's. An exec's row with no ``detail``
    (nearly all of them) is a plain ``tuple`` instead, complete as it is:
    apsw binds a plain tuple directly but copies a subclass's values into a
    list first. ``call_log_rows`` takes either: an exec's entry goes from
    the call's values to the INSERT with no dict in between (one per entry
    cost more than the row's other work).
    """

    __slots__ = ()


__all__ = ["ARGS_AT", "CALL_LOG_COLUMNS", "CALL_ROW_KEYS", "DIGEST_OF_TEXT", "CallLogRow", "args_digest_of"]
