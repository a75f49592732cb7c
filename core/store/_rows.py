"""Turning rows into what callers see, and callers' values into rows.

Rows leave the store as plain dicts with JSON already decoded. New rows get
their id, timestamps and defaults here; field values are checked against the
kind's spec so that a bad value is reported by name, not as a SQL error.
"""

from __future__ import annotations

import copy
import hashlib
import time
from collections.abc import Callable, Collection, Mapping
from contextvars import ContextVar
from functools import lru_cache
from operator import itemgetter
from typing import Any

from .._json_encoder import encoder_made_once
from ._errors import InvalidValue
from ._kinds import INT, JSON, KINDS, TYPE_KEY_PATTERN, Field, KindSpec
from ._nesting import CUT_MARKER, MAX_VALUE_DEPTH, cut_marker_at, dotted, load_bounded, too_deep

SET_BY_STORE = ("id", "created_at", "updated_at")
_JSON_COLUMNS = {spec.kind: frozenset(f.name for f in spec.fields if f.type == JSON) for spec in KINDS.values()}


_last_now: tuple[int, str] = (-1, "")


def utc_now() -> str:
    """The current time as RFC 3339 UTC to the second, like the demo data.

    Whole seconds keep every stored time in one lexically sortable shape;
    ties are broken by insertion order where order matters. Formatted once
    a second: every write asks for it, and formatting took longer than
    reading the clock (about 3 us of a create's CPU, 12 us on a busy machine).
    """
    global _last_now
    second = int(time.time())
    if _last_now[0] != second:
        _last_now = (second, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second)))
    return _last_now[1]


class _SeededIds:
    """The ids a write creates, derived from a seed: the same seed gives the same ids in the same order.

    A dry-run and the real run that follows it share a seed, so the id a
    person reviews in the diff is the id that gets written.
    """

    def __init__(self, seed: str, reused: bool):
        self.seed = seed
        self.count = 0
        # A seed handed back by the caller may have been run for real already, so its ids may be taken.
        self.reused = reused

    def next(self) -> str:
        """The next id: a version 4 UUID made of the first 16 bytes of sha256(seed:count).

        The bytes are marked and spelled here as ``str(uuid.UUID(bytes=..., version=4))``
        does (version 4, RFC 4122 variant; tests/store/test_store_seeded_ids.py compares
        the two), without building the UUID object, which cost half of this.
        """
        self.count += 1
        raw = bytearray(hashlib.sha256(f"{self.seed}:{self.count}".encode()).digest()[:16])
        raw[6] = (raw[6] & 0x0F) | 0x40
        raw[8] = (raw[8] & 0x3F) | 0x80
        text = raw.hex()
        return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


_SEEDED: ContextVar[_SeededIds | None] = ContextVar("opgate_seeded_ids", default=None)


class seeded_ids:  # lower case: used as ``with seeded_ids(...)``, like the function it was
    """New ids made inside the block come from ``seed`` (random uuid4 ids when it is None).

    ``reused=False`` says the seed was drawn for this call (at random, never
    handed out before it), so the ids it gives cannot be taken already and
    nothing needs to check them. A class, not a ``@contextmanager``: every
    write enters it, and the generator's machinery cost three more Python calls.
    """

    __slots__ = ("_seeded", "_token")

    def __init__(self, seed: str | None, *, reused: bool = True) -> None:
        self._seeded = _SeededIds(seed, reused) if seed else None

    def __enter__(self) -> None:
        self._token = _SEEDED.set(self._seeded)

    def __exit__(self, *exc: object) -> None:
        _SEEDED.reset(self._token)


def ids_may_be_taken() -> bool:
    """Whether the ids made now come from a seed the caller passed back, which an earlier run may have used."""
    seeded = _SEEDED.get()
    return seeded is not None and seeded.reused


def new_id() -> str:
    seeded = _SEEDED.get()
    if seeded is not None:
        return seeded.next()
    import uuid

    return str(uuid.uuid4())


def copy_row(row: dict) -> dict:
    """A copy safe to hand out: nested JSON values copied, flat ones shared.

    Cheaper than ``copy.deepcopy`` for the flat rows the store deals in.
    """
    return {k: (copy_json(v) if type(v) in _CONTAINERS else v) for k, v in row.items()}


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (dicts, lists and scalars).

    A few times cheaper than ``copy.deepcopy``, which keeps a memo for
    shared and cyclic references that JSON values never have; a create
    copies its ``props`` several times on the way to the caller. Anything
    that is not JSON is left to ``copy.deepcopy``.
    """
    kind = type(value)
    if kind is dict:
        return {k: (copy_json(v) if type(v) in _CONTAINERS else v) for k, v in value.items()}
    if kind is list:
        return [copy_json(v) if type(v) in _CONTAINERS else v for v in value]
    if kind in _SCALARS:
        return value
    return copy.deepcopy(value)


_SCALARS = frozenset({str, int, float, bool, type(None)})
_CONTAINERS = frozenset({dict, list})


# Made once: ``JSONEncoder.encode`` builds its C encoder again on every call, and every stored JSON value
# (and call-log entry) passes here. Stored values passed the input checks (no cycle can reach the store).
_STORED_JSON = encoder_made_once(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def encode_json(value: Any) -> str:
    return _STORED_JSON(value)


def decode(columns: tuple[str, ...], values: tuple[Any, ...], json_columns: frozenset[str]) -> dict:
    """A stored tuple as a dict, with JSON columns decoded (and cut if stored too deep, see ``_nesting``)."""
    row = dict(zip(columns, values))
    for name in json_columns & row.keys():
        if row[name] is not None:
            row[name] = load_bounded(row[name])
    return row


Shape = tuple[tuple[str, str], ...]
"""(key in the row handed back, column) pairs, ``("id", "id")`` first: rows already in the form a result shows."""


def shown_columns(spec: KindSpec, fields: Collection[str] | None, shape: Shape | None) -> tuple[str, ...]:
    """The columns a row of ``spec`` needs for ``shape`` (or ``id`` and ``fields``), in the order :func:`rows_plan` hands them over."""
    if shape is not None:
        return tuple(column for _, column in shape)
    assert fields is not None
    return tuple(name for name in spec.columns if name == "id" or name in fields)


RowsMaker = Callable[[list[tuple[Any, ...]]], list[dict]]


def rows_plan(spec: KindSpec, fields: Collection[str] | None, shape: Shape | None, *, every_column: bool) -> tuple[str, RowsMaker]:
    """What to SELECT (the column list, as SQL) and a function turning the fetched tuples into the rows handed back.

    Rows carry ``shape``'s keys, else ``id`` and ``fields``, else every
    column. ``every_column``: fetch every column of ``spec`` (a transaction
    that observes its reads needs them all for the digest) and pick;
    otherwise fetch only :func:`shown_columns`. JSON columns among those
    kept are decoded. Made once per kind and request (cached), so a page
    costs one comprehension.
    """
    return _plan(spec.kind, shape, None if shape is not None or fields is None else frozenset(fields), every_column)


@lru_cache(maxsize=256)
def _plan(kind: str, shape: Shape | None, fields: frozenset[str] | None, every_column: bool) -> tuple[str, RowsMaker]:
    spec = KINDS[kind]
    all_columns = ", ".join(spec.columns)
    if shape is None and fields is None:
        columns, json_columns = spec.columns, _JSON_COLUMNS[kind]
        return all_columns, lambda fetched: [decode(columns, values, json_columns) for values in fetched]
    shown = shown_columns(spec, fields, shape)
    keys = tuple(key for key, _ in shape) if shape is not None else shown
    json_keys = tuple(key for key, column in zip(keys, shown) if column in _JSON_COLUMNS[kind])
    select = all_columns if every_column else ", ".join(shown)
    if every_column and len(shown) == 1:
        index = spec.columns.index(shown[0])
        return select, lambda fetched: [{keys[0]: values[index]} for values in fetched]
    pick = itemgetter(*(spec.columns.index(column) for column in shown)) if every_column else None

    def make_rows(fetched: list[tuple[Any, ...]]) -> list[dict]:
        rows = [dict(zip(keys, pick(values))) for values in fetched] if pick else [dict(zip(keys, values)) for values in fetched]
        for key in json_keys:
            for row in rows:
                if row[key] is not None:
                    row[key] = load_bounded(row[key])
        return rows

    return select, make_rows


def encode(row: Mapping[str, Any], json_columns: frozenset[str]) -> dict:
    """A row ready for binding: JSON columns serialised."""
    return {k: (encode_json(v) if k in json_columns and v is not None else v) for k, v in row.items()}


def json_columns_of(spec: KindSpec) -> frozenset[str]:
    return _JSON_COLUMNS[spec.kind]


def new_row(spec: KindSpec, fields: Mapping[str, Any], now: str) -> dict:
    """A complete row for ``spec`` from caller fields plus defaults.

    An ``id`` or timestamps in ``fields`` are kept (the demo loader restores
    fixed ids); otherwise they are generated.
    """
    known = spec.field_map
    for name in fields:
        if name not in known and name not in SET_BY_STORE:
            raise InvalidValue(name, f"{spec.kind} has no field {name!r}", tuple(known))
    row: dict[str, Any] = {"id": fields.get("id") or new_id()}
    for f in spec.fields:
        value = fields.get(f.name)
        if value is not None:
            check_value(spec, f, value)
        elif f.default is None:
            check_value(spec, f, None)  # refuses a missing required field
        else:
            # The kinds' defaults suit their fields (tests/store/test_store_rows_defaults.py checks
            # each one), so they are not checked per row; only a mutable one is copied.
            value = copy_json(f.default) if isinstance(f.default, (dict, list)) else f.default
        row[f.name] = value
    row["created_at"] = fields.get("created_at") or now
    row["updated_at"] = fields.get("updated_at") or row["created_at"]
    return row


def checked_changes(spec: KindSpec, changes: Mapping[str, Any]) -> dict:
    """``changes`` after checking each field may change and has a valid value."""
    known = spec.field_map
    out = {}
    for name, value in changes.items():
        if name in SET_BY_STORE:
            raise InvalidValue(name, "is set by the store and cannot be changed")
        if name not in known:
            raise InvalidValue(name, f"{spec.kind} has no field {name!r}", tuple(known))
        if name == "project_id":
            raise InvalidValue(name, "an entity cannot move to another project")
        f = known[name]
        if value is None and f.default is not None:
            raise InvalidValue(name, "cannot be cleared; it always has a value")
        check_value(spec, f, value)
        out[name] = value
    return out


def check_json_object(name: str, value: Any) -> None:
    """Raise :class:`InvalidValue` unless ``value`` is an object nested at most MAX_VALUE_DEPTH levels, with no cut in it."""
    if not isinstance(value, dict):
        raise InvalidValue(name, "must be a JSON object")
    deep = too_deep(value)
    if deep is not None:
        raise InvalidValue(name, f"nests deeper than {MAX_VALUE_DEPTH} levels (at {dotted(deep, name)}); "
                                 "flatten it: keep deep structure as separate keys, or as a JSON string")
    cut = cut_marker_at(value)
    if cut is not None:
        raise InvalidValue(name, f"{dotted(cut, name)} holds {CUT_MARKER!r}: it was stored deeper than "
                                 f"{MAX_VALUE_DEPTH} levels and was read back cut. Set it to null or to a flatter value "
                                 "rather than writing the cut copy back")


def check_value(spec: KindSpec, f: Field, value: Any) -> None:
    """Raise :class:`InvalidValue` unless ``value`` suits field ``f``."""
    if value is None:
        if f.required:
            raise InvalidValue(f.name, f"is required for a {spec.kind}")
        return
    if f.type == JSON:
        check_json_object(f.name, value)
        return
    if f.type == INT:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidValue(f.name, "must be an integer")
        if f.bounds and not f.bounds[0] <= value <= f.bounds[1]:
            raise InvalidValue(f.name, f"must be between {f.bounds[0]} and {f.bounds[1]}")
        return
    if not isinstance(value, str):
        raise InvalidValue(f.name, "must be a string")
    if f.enum is not None and value not in f.enum:
        raise InvalidValue(f.name, f"{value!r} is not a {spec.kind} {f.name}", f.enum)
    if f.name == "type_key" and not TYPE_KEY_PATTERN.match(value):
        raise InvalidValue(f.name, f"{value!r} is not a dotted key like 'task.research'")
