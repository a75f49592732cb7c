"""Which backend a workspace location names: a file path (SQLite) or a ``postgresql://`` URL.

Kept free of both drivers, so that telling the two apart imports neither.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

URL_PREFIXES = ("postgresql://", "postgres://")


def is_postgres_url(location: object) -> bool:
    """Whether a ``--db`` value names a PostgreSQL database rather than a file."""
    return isinstance(location, str) and location.startswith(URL_PREFIXES)


def connect_store(location: str | os.PathLike[str], *, clock: Callable[[], str] | None = None) -> Any:
    """An open, migrated store for ``location``: :class:`PostgresStore` for a URL, else :class:`SQLiteStore`."""
    options = {} if clock is None else {"clock": clock}
    if is_postgres_url(location):
        from ._pg_store import PostgresStore

        return PostgresStore(str(location), **options)
    from ._sqlite_store import SQLiteStore

    return SQLiteStore(location, **options)
