"""Posting lists as typed arrays, and their packing into bytes for the on-disk cache.

A posting list is a tuple of parallel sequences: document ids (``array('i')``)
and one or more weights per document (``array('d')``). Against a Python list
of ``(id, weight)`` tuples (about 90 bytes a posting) this is 12 bytes a
posting, for the same floats: scores and ranking are unchanged.

Each list can also have its *impact order* (:func:`impact_order`): its
positions by weight, largest first, 4 bytes a posting. The postings of a
list over a weight are then a prefix of that order, found by bisection,
so the top of a ranking is found without reading whole lists (see
:mod:`._pruned`).

Packed, a table of posting lists is its terms (JSON), where each list starts
(``array('q')``) and each column's values end to end, so loading it is one
JSON parse and one copy per column, then a slice per list (arrays iterate
faster than memoryviews).
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Mapping, Sequence
from typing import Any

IDS = "i"
WEIGHTS = "d"

PostingList = tuple  # (ids, weights, ...): parallel sequences


def posting_list(ids: Sequence[int], *weights: Sequence[float]) -> PostingList:
    return (array(IDS, ids), *(array(WEIGHTS, w) for w in weights))


def impact_order(weights: Sequence[float]) -> array:
    """Positions of ``weights``, largest weight first; equal weights in position order (a stable sort)."""
    return array(IDS, sorted(range(len(weights)), key=weights.__getitem__, reverse=True))


def pack(table: Mapping[str, PostingList], name: str) -> dict[str, bytes]:
    """Sections ``{name}.terms``, ``{name}.offsets`` and ``{name}.0``, ``{name}.1``... for a table of posting lists."""
    terms = list(table)
    width = len(next(iter(table.values()))) if table else 1
    offsets = array("q", [0])
    columns = [array(IDS)] + [array(WEIGHTS) for _ in range(width - 1)]
    for term in terms:
        postings = table[term]
        for column, values in zip(columns, postings):
            column.extend(values)
        offsets.append(len(columns[0]))
    sections = {f"{name}.terms": json.dumps(terms, separators=(",", ":")).encode(), f"{name}.offsets": offsets.tobytes()}
    for position, column in enumerate(columns):
        sections[f"{name}.{position}"] = column.tobytes()
    return sections


def unpack(read: Any, name: str) -> dict[str, PostingList]:
    """The table :func:`pack` wrote; ``read(section)`` gives a section's bytes."""
    terms = json.loads(bytes(read(f"{name}.terms")))
    offsets = array("q")
    offsets.frombytes(read(f"{name}.offsets"))
    columns = []
    position = 0
    while True:
        try:
            raw = read(f"{name}.{position}")
        except KeyError:
            break
        column = array(IDS if position == 0 else WEIGHTS)
        column.frombytes(raw)
        columns.append(column)
        position += 1
    if len(offsets) != len(terms) + 1 or any(len(c) != offsets[-1] for c in columns):
        raise ValueError(f"the packed table {name!r} does not add up")
    return PackedTable(terms, offsets, columns)


class PackedTable(Mapping[str, PostingList]):
    """What :func:`unpack` reads: a term's posting lists are sliced from the columns when first looked up.

    A command line looks up a few terms of thousands; slicing every list
    when the index is read cost ``opgate search`` about a tenth of its
    instructions (docs/performance.md). The lists are the same arrays.
    """

    __slots__ = ("_at", "_columns", "_offsets", "_sliced")

    def __init__(self, terms: list[str], offsets: array, columns: list[array]):
        self._at = dict(zip(terms, range(len(terms))))
        self._offsets = offsets
        self._columns = columns
        self._sliced: dict[str, PostingList] = {}

    def __getitem__(self, term: str) -> PostingList:
        found = self._sliced.get(term)
        if found is None:
            at = self._at[term]
            start, end = self._offsets[at], self._offsets[at + 1]
            found = self._sliced[term] = tuple(column[start:end] for column in self._columns)
        return found

    def __contains__(self, term: object) -> bool:
        return term in self._at

    def __iter__(self):
        return iter(self._at)

    def __len__(self) -> int:
        return len(self._at)
