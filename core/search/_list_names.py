"""The names a query list's key takes in the packed search cache, and the lists read back by those names.

A list's key is ``("g", gram)`` or ``("w", word key)``; the cache's tables
are keyed by text, so each key is spelled as a name when written
(:func:`order_name`) and read back lazily (:class:`OrdersByName`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any


def order_name(key: tuple[str, Any]) -> str:
    """A list's key as a packed table's term: ``g`` and the gram, or ``w`` and the word key in JSON (a term, or stand-ins with their shares)."""
    kind, name = key
    return kind + (name if kind == "g" else json.dumps(name, separators=(",", ":")))


class OrdersByName:
    """Impact orders read from the cache, looked up by their packed name.

    A key becomes a name when it is looked up (a few per query) instead of
    every one of thousands of names being parsed back into a key when the
    index is read.
    """

    def __init__(self, by_name: dict[str, tuple[Any, ...]], *, whole: bool = False):
        self._by_name = by_name
        # Every column of a list (block maxima: numbers and maxima), or its first (an impact order).
        self._whole = whole

    def get(self, key: tuple[str, Any]) -> Any:
        columns = self._by_name.get(order_name(key))
        if columns is None:
            return None
        return columns if self._whole else columns[0]

    def items(self) -> Iterator[tuple[tuple[str, Any], Any]]:
        return ((order_key(name), columns if self._whole else columns[0]) for name, columns in self._by_name.items())


def order_key(name: str) -> tuple[str, Any]:
    """A packed name back into its list's key: :func:`order_name` undone."""
    if name[0] == "g":
        return "g", name[1:]
    key = json.loads(name[1:])
    return "w", key if isinstance(key, str) else tuple((str(term), float(share)) for term, share in key)


__all__ = ["OrdersByName", "order_key", "order_name"]
