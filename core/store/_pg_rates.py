"""A rate per caller shared by every server process on one PostgreSQL database.

GCRA, the token bucket kept as one number: the time at which the caller's
next request is due (``due``). A request is allowed when granting it keeps
``due`` within ``burst`` intervals of now, and then moves ``due`` one
interval on. That is one upsert per request, on the caller's own row, in
autocommit: it takes no part in the store's write lock, so a request never
waits for another caller's write, and two processes spending one caller's
rate at once are serialised by the row lock alone. Time is the database's
(``clock_timestamp()``), so server hosts need not agree on theirs.
"""

from __future__ import annotations

from typing import Any

from ._pg_conn import translated

_NOW = "extract(epoch FROM clock_timestamp())"
_SPEND = f"""
INSERT INTO rate_buckets AS bucket (name, due) VALUES (%(name)s, {_NOW} + %(interval)s)
ON CONFLICT (name) DO UPDATE SET due = greatest(bucket.due, {_NOW}) + %(interval)s
WHERE greatest(bucket.due, {_NOW}) + %(interval)s - {_NOW} <= %(window)s
RETURNING due
"""
_WAIT = f"SELECT greatest(due, {_NOW}) + %(interval)s - {_NOW} - %(window)s FROM rate_buckets WHERE name = %(name)s"


def spend(pool: Any, name: str, rate: float, burst: int) -> float:
    """Spend one request of ``name``'s rate: 0 if allowed, else the seconds until one is."""
    params = {"name": name, "interval": 1.0 / rate, "window": burst / rate}
    with translated(), pool.connection() as conn:
        if conn.execute(_SPEND, params).fetchone() is not None:
            return 0.0
        row = conn.execute(_WAIT, params).fetchone()
    return max(float(row[0]), 0.001) if row else 0.001
