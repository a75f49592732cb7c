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


def entities_named(ids: list[str], diff: dict[str, Any] | None = None) -> list[str]:
    """:func:`entities_touched` of a result whose ids the executor listed already (``Outcome.entities``), then the diff's."""
    if all(map(str.strip, ids)):  # the usual case, in C: no blank text (which names nothing, as in the walk)
        seen = dict.fromkeys(ids)
    else:
        seen = dict.fromkeys(id for id in ids if id.strip())
    if len(seen) >= MAX_ENTITIES:
        return list(seen)[:MAX_ENTITIES]
    if diff:
        _collect_ids(diff, seen)
    return list(seen)[:MAX_ENTITIES]


RowIdsPlan = tuple[tuple[str, bool], ...]
"""The columns of a row that may name ids, in column order, each with whether it holds JSON to walk."""


def row_ids_plan(columns: Iterable[str], json_columns: Collection[str] = ()) -> RowIdsPlan:
    """What :func:`add_row_ids` reads of a row with these columns: the ones whose name names an id, and the JSON ones."""
    return tuple((column, column in json_columns) for column in columns if column in json_columns or _names_an_id(column))


def add_row_ids(row: dict[str, Any], plan: RowIdsPlan, seen: dict[str, None]) -> None:
    """Add to ``seen`` the ids the walk finds in ``row`` (a flat row whose keys are the plan's columns and more).

    The same ids in the same order as :func:`entities_touched` of the row,
    without walking the text columns that can name none: an executor that
    builds its result from store rows names its ids with this
    (``HandlerContext.names``). Nested JSON is walked as the result is.
    """
    for column, nested in plan:
        value = row[column]
        if type(value) is str and not nested:
            if value.strip():
                seen.setdefault(value, None)
        elif value is None:
            continue
        elif nested or isinstance(value, (dict, list)):
            _collect_ids(value, seen, column)
        elif (text := _id_text(value)) is not None:
            seen.setdefault(text, None)


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
