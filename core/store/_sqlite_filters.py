"""WHERE and ORDER BY clauses from caller filters, with names checked first.

Field names come from callers, so each is checked against the kind's columns
before it is written into SQL; values are always bound parameters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ._errors import InvalidValue
from ._kinds import KindSpec
from ._protocol import Order

DEFAULT_ORDER = ("created_at",)


def where_clause(spec: KindSpec, filters: Mapping[str, Any], alias: str = "") -> tuple[str, list]:
    """``col = ?`` per filter; ``None`` means IS NULL and a list means IN."""
    prefix = f"{alias}." if alias else ""
    parts, params = [], []
    for name, value in filters.items():
        column = prefix + _checked(spec, name, "filters")
        if value is None:
            parts.append(f"{column} IS NULL")
        elif isinstance(value, (list, tuple, set, frozenset)):
            values = list(value)
            if not values:
                parts.append("FALSE")
                continue
            parts.append(f"{column} IN ({', '.join('?' * len(values))})")
            params.extend(values)
        else:
            parts.append(f"{column} = ?")
            params.append(value)
    return (" AND ".join(parts) or "TRUE"), params


def order_clause(spec: KindSpec, order: Order, alias: str = "") -> str:
    """``field`` ascending or ``-field`` descending; insertion order breaks ties, in the last field's direction.

    Following the last field's direction lets SQLite walk an index on
    ``(..., field)`` (whose entries end in ``seq``) backwards and stop after
    one page. With ``seq`` always ascending, ``-updated_at`` had to sort every
    row sharing a time: 1.2 ms against 0.02 ms for a page of 5,000 tasks
    made in the same second.
    """
    prefix = f"{alias}." if alias else ""
    items = [order] if isinstance(order, str) else list(order or DEFAULT_ORDER)
    parts = []
    descending = False
    for item in items:
        descending = item.startswith("-")
        name = _checked(spec, item.lstrip("-"), "order")
        parts.append(f"{prefix}{name}{' DESC' if descending else ''}")
    parts.append(f"{prefix}seq{' DESC' if descending else ''}")
    return ", ".join(parts)


def checked_fields(spec: KindSpec, fields: Sequence[str] | None) -> frozenset[str] | None:
    """The fields a caller asked rows to carry (``None``: all of them), each checked."""
    if fields is None:
        return None
    return frozenset(_checked(spec, name, "fields") for name in fields)


def page_params(limit: int | None, offset: int) -> tuple[int, int]:
    """LIMIT/OFFSET values; ``None`` means no limit."""
    if limit is not None and limit < 0:
        raise InvalidValue("limit", "must not be negative")
    if offset < 0:
        raise InvalidValue("offset", "must not be negative")
    return (-1 if limit is None else limit), offset


def _checked(spec: KindSpec, name: str, where: str) -> str:
    if name not in spec.columns:
        raise InvalidValue(f"{where}.{name}", f"{spec.kind} has no field {name!r}", spec.columns)
    return name
