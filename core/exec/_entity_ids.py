"""The ids an answer touches (``meta.entities``): found by walking the result, or named by the executor.

A key names an id when it is ``id`` or ends in ``_id`` / ``Id``; the walk
keeps document order and stops at ``MAX_ENTITIES``. An executor that builds
its result from store rows can name the ids itself (:func:`add_row_ids`),
which gives the same ids in the same order without walking the text.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from functools import lru_cache
from itertools import repeat
from operator import itemgetter
from typing import Any

MAX_ENTITIES = 50


@lru_cache(maxsize=4096)
def _names_an_id(key: Any) -> bool:
    # Cached: a list of rows asks about the same few keys on every row.
    return isinstance(key, str) and (key in ("id", "_entities_accessed") or key.endswith("_id") or (key.endswith("Id") and len(key) > 2))


def _id_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value if value.strip() else None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)  # upstream APIs number their rows
    return None


def entities_touched(result: Any, diff: dict[str, Any] | None = None) -> list[str]:
    """Ids the call touched, in first-seen order: from ``id``, ``*_id`` and ``*Id`` fields and
    from ``_entities_accessed`` lists in the result, then from the diff.

    Any non-empty string or integer counts, not only UUIDs: ops of other
    catalogues name their entities as their APIs do. The walk keeps a stack of
    iterators rather than recursing, so a deeply nested result cannot exhaust
    the recursion limit, and it stops at :data:`MAX_ENTITIES`.
    """
    seen: dict[str, None] = {}
    for root in (result, diff) if diff else (result,):
        _collect_ids(root, seen)
        if len(seen) >= MAX_ENTITIES:
            break
    return list(seen)[:MAX_ENTITIES]


def entities_named(ids: list[str] | dict[str, None], diff: dict[str, Any] | None = None) -> list[str]:
    """:func:`entities_touched` of a result whose ids the executor listed already (``Outcome.entities``), then the diff's.

    A dict is what :func:`add_row_ids` found (``HandlerContext.names_found``): distinct, and none blank.
    """
    if type(ids) is dict:
        if not diff and len(ids) <= MAX_ENTITIES:
            return list(ids)  # a get's: nothing to check, nothing to add
        seen = ids
    elif all(map(str.strip, ids)):  # the usual case, in C: no blank text (which names nothing, as in the walk)
        seen = dict.fromkeys(ids)
    else:
        seen = dict.fromkeys(id for id in ids if id.strip())
    if len(seen) >= MAX_ENTITIES:
        return list(seen)[:MAX_ENTITIES]
    if diff:
        _collect_ids(diff, seen)
    return list(seen)[:MAX_ENTITIES]


_SCALARS = frozenset({str, int, float, bool, type(None)})
"""Types of values that a walk never enters: under a key that names no id, they name nothing."""


class RowIdsPlan:
    """The columns of a row that may name ids, in column order, each with whether it holds JSON to walk.

    Iterates as ``(column, nested)`` pairs. When every text column comes
    before every JSON one (as in the store's kinds), ``split`` holds those
    two lists apart, so that :func:`add_row_ids` reads the text columns in one go.
    """

    __slots__ = ("pairs", "split", "texts_of")

    def __init__(self, pairs: tuple[tuple[str, bool], ...]):
        self.pairs = pairs
        texts = tuple(column for column, nested in pairs if not nested)
        nested = tuple(column for column, nested in pairs if nested)
        in_order = texts and pairs[:len(texts)] == tuple((column, False) for column in texts)
        self.split: tuple[tuple[str, ...], tuple[str, ...]] | None = (texts, nested) if in_order else None
        # The text columns' values as a tuple, read in C. One column is asked for twice, since itemgetter of
        # one key gives the value itself; the same id twice adds nothing.
        self.texts_of = None if not in_order else itemgetter(*texts) if len(texts) > 1 else itemgetter(*texts, *texts)

    def __iter__(self) -> Iterator[tuple[str, bool]]:
        return iter(self.pairs)


def row_ids_plan(columns: Iterable[str], json_columns: Collection[str] = ()) -> RowIdsPlan:
    """What :func:`add_row_ids` reads of a row with these columns: the ones whose name names an id, and the JSON ones."""
    return RowIdsPlan(tuple((column, column in json_columns) for column in columns if column in json_columns or _names_an_id(column)))


_TEXT_OR_NONE = frozenset({str, type(None)})


def add_row_ids(row: dict[str, Any], plan: RowIdsPlan, seen: dict[str, None]) -> None:
    """Add to ``seen`` the ids the walk finds in ``row`` (a flat row whose keys are the plan's columns and more).

    The same ids in the same order as :func:`entities_touched` of the row,
    without walking the text columns that can name none: an executor that
    builds its result from store rows names its ids with this
    (``HandlerContext.names``). Nested JSON is walked as the result is.
    """
    split = plan.split
    if split is not None:
        values = plan.texts_of(row)
        if _TEXT_OR_NONE.issuperset(map(type, values)):
            # Text and nulls only (a stored row's id columns): what the loop below adds, in order, without its tests.
            # (A loop of plain bytecodes: filter, filter, fromkeys and update made it twice as long.)
            for value in values:
                if value and value.strip():
                    seen[value] = None
            for column in split[1]:
                _add_nested(row[column], column, seen)
            return
    for column, nested in plan.pairs:
        value = row[column]
        if type(value) is str and not nested:
            if value.strip():
                seen.setdefault(value, None)
        elif value is None:
            continue
        elif nested:
            _add_nested(value, column, seen)
        elif isinstance(value, (dict, list)):
            _collect_ids(value, seen, column)
        elif (text := _id_text(value)) is not None:
            seen.setdefault(text, None)


def _add_nested(value: Any, column: str, seen: dict[str, None]) -> None:
    """The ids in a JSON column's value, as the walk finds them under ``column``."""
    if value is None:
        return
    if type(value) is dict:
        # A flat object whose keys name no id (the usual props, a few keys): the walk would find nothing.
        # A plain loop: for a few keys, issuperset over a map and any() over another cost more than it.
        for key, item in value.items():
            if type(item) not in _SCALARS or _names_an_id(key):
                break
        else:
            return
    _collect_ids(value, seen, column)


def _collect_ids(root: Any, seen: dict[str, None], under: str = "") -> None:
    """Add the ids under ``root`` (found under the key ``under``) to ``seen`` in document order (a list's items go under the list's key)."""
    frames: list[Iterator[tuple[Any, Any]]] = []
    pairs: Iterator[tuple[Any, Any]] = iter(((under, root),))
    names_an_id = _names_an_id
    while True:
        for name, value in pairs:
            kind = type(value)
            if kind is str:  # most values of a result: checked first, without the generic tests
                if value.strip() and names_an_id(name):
                    seen.setdefault(value, None)
                    if len(seen) >= MAX_ENTITIES:
                        return
            elif value is None:  # names nothing, whatever its key
                continue
            elif kind is dict or isinstance(value, dict):
                if isinstance(name, str):  # an entry under a name that is no string is not walked
                    frames.append(pairs)
                    pairs = iter(value.items())
                    break
            elif kind is list or isinstance(value, list):
                if isinstance(name, str):
                    frames.append(pairs)
                    pairs = zip(repeat(name), value)
                    break
            elif names_an_id(name) and (text := _id_text(value)) is not None:
                seen.setdefault(text, None)
                if len(seen) >= MAX_ENTITIES:
                    return
        else:
            if not frames:
                return
            pairs = frames.pop()
