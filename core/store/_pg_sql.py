"""The shared transaction SQL, adapted to PostgreSQL in one place.

The transaction mixins (``_sqlite_entities``, ``_sqlite_graph``, ...) write
their statements once, in the small SQL that SQLite and PostgreSQL share, with
SQLite's placeholders. This module rewrites the few spots where the two
dialects differ, so the rules of the store live in one copy:

- ``?`` and ``?N`` become psycopg's ``%s`` (the parameter list is rearranged
  for numbered ones, which may repeat); a literal ``%`` is doubled.
- ``x IS ?`` (SQLite's null-safe equality) becomes ``IS NOT DISTINCT FROM``.
- ``LIMIT ?`` bound to -1 (SQLite's "no limit") is bound to NULL instead.
- ``rowid`` (task links' insertion order) becomes the table's ``seq`` column.
- ``INSERT OR REPLACE INTO t (...) VALUES (...)`` becomes an upsert on the
  table's primary key, named in :data:`REPLACE_KEYS`.

Every statement is translated once and cached.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

REPLACE_KEYS: dict[str, tuple[str, ...]] = {
    "idempotency_keys": ("caller", "key"),
    "upstream_pins": ("upstream", "tool"),
    "store_meta": ("key",),
    "client_sessions": ("session_key",),
}
"""The conflict target of ``INSERT OR REPLACE`` per table (its primary key).

A new bookkeeping table written with ``INSERT OR REPLACE`` needs its entry here.
"""

_TOKEN = re.compile(r"'(?:[^']|'')*'|\?(\d*)|%|\bIS\s+\?|\browid\b|\bLIMIT\s+\?", re.IGNORECASE)
_REPLACE = re.compile(
    r"^\s*INSERT\s+OR\s+REPLACE\s+INTO\s+(\w+)\s*\(([^)]*)\)(.*)$", re.IGNORECASE | re.DOTALL,
)


@dataclass(frozen=True)
class Translated:
    """A statement for psycopg and how to build its parameters from the original ones."""

    sql: str
    picks: tuple[int, ...]  # original parameter index for each %s, in order
    limits: frozenset[int]  # positions (in ``picks``) bound by LIMIT, where -1 means NULL

    def params(self, original: Any) -> list[Any]:
        if isinstance(original, dict):
            raise TypeError("named parameters are not used by the store")
        values: Sequence[Any] = original if isinstance(original, (list, tuple)) else list(original)
        out = [values[i] for i in self.picks]
        for position in self.limits:
            if out[position] == -1:
                out[position] = None
        return out


@lru_cache(maxsize=1024)
def translate(sql: str) -> Translated:
    """``sql`` (SQLite flavour, as the mixins write it) as PostgreSQL understands it."""
    sql = _upsert(sql)
    picks: list[int] = []
    limits: set[int] = set()
    sequential = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal sequential
        token = match.group(0)
        if token.startswith("'"):
            return token.replace("%", "%%")
        if token == "%":
            return "%%"
        if token.lower() == "rowid":
            return "seq"
        upper = token.upper()
        if upper.startswith("IS"):
            picks.append(sequential)
            sequential += 1
            return "IS NOT DISTINCT FROM %s"
        if upper.startswith("LIMIT"):
            limits.add(len(picks))
            picks.append(sequential)
            sequential += 1
            return "LIMIT %s"
        number = match.group(1)
        if number:
            picks.append(int(number) - 1)
        else:
            picks.append(sequential)
            sequential += 1
        return "%s"

    return Translated(_TOKEN.sub(replace, sql), tuple(picks), frozenset(limits))


def _upsert(sql: str) -> str:
    match = _REPLACE.match(sql)
    if match is None:
        return sql
    table, columns, rest = match.group(1), match.group(2), match.group(3)
    if table not in REPLACE_KEYS:
        raise ValueError(f"INSERT OR REPLACE INTO {table}: name its primary key in _pg_sql.REPLACE_KEYS")
    key = REPLACE_KEYS[table]
    names = [c.strip() for c in columns.split(",")]
    updates = ", ".join(f"{n} = EXCLUDED.{n}" for n in names if n not in key)
    action = f"DO UPDATE SET {updates}" if updates else "DO NOTHING"
    return f"INSERT INTO {table} ({columns}){rest} ON CONFLICT ({', '.join(key)}) {action}"
