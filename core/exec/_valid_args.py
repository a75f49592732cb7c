"""Arguments already found valid, so that a repeated read skips the schema walk.

Validity is a function of the schema and the arguments alone (formats
included), so an op called again with the same flat arguments (a list
page polled, the same project listed) is valid again. Only flat arguments
are kept: each value a string, number, boolean or null, with its exact type
in the key, so ``1``, ``1.0`` and ``True`` never stand for each other. Names
must be text too: ``{True: 0}`` and ``{1: 0}`` hash alike, and only a
Python caller can pass either. The table is bounded; when full it starts
again.
"""

from __future__ import annotations

from typing import Any

_FLAT = (str, int, float, bool, type(None))
KEPT = 1024
"""Most argument sets remembered per validator."""


_FLAT_TYPES = frozenset(_FLAT)
_NAME_TYPES = frozenset({str})


def flat_key(op: str, schema_id: int, args: dict[str, Any]) -> tuple | None:
    """A hashable key for ``args`` of ``op``, or None when a value is not flat.

    The names and values in order, and each value's exact type beside them
    (asked in C: every read passes here).
    """
    kinds = tuple(map(type, args.values()))
    if not _FLAT_TYPES.issuperset(kinds) or not _NAME_TYPES.issuperset(map(type, args)):
        return None
    return (op, schema_id, tuple(args.items()), kinds)


class ValidArgs(dict):
    """A bounded set of (op, schema, flat arguments) that passed validation, each with whether they came plain.

    A dict of its keys, so that ``key in valid`` is asked in C (a Python
    ``__contains__`` cost a read about 1 k instructions). ``None`` (arguments
    that are not flat) is never added, so it is never in. A key's value is
    True when the arguments were also sent as they are and plain (see
    ``_plain_args`` in ``_prepare.py``): the same arguments again need
    neither check (:meth:`plain`).
    """

    def __init__(self, kept: int = KEPT) -> None:
        super().__init__()
        self._kept = kept

    def add(self, key: tuple | None, plain: bool = False) -> None:
        if key is None:
            return
        if len(self) >= self._kept:
            self.clear()  # a fresh table rather than an LRU: no lock, no bookkeeping per call
        self[key] = plain

    def plain(self, op: str, schema_id: int, args: dict[str, Any]) -> bool:
        """Whether ``args`` (a dict as sent) were found plain and valid for ``op`` before.

        :func:`flat_key`'s key without its check of the names: a key stored
        as plain has text names only, and no other name equals text.
        """
        kinds = tuple(map(type, args.values()))
        return _FLAT_TYPES.issuperset(kinds) and self.get((op, schema_id, tuple(args.items()), kinds)) is True
