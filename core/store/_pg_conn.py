"""psycopg connections for the PostgreSQL store: the pool, error translation, retries.

psycopg is imported here and in the other ``_pg_*`` modules only, so that a
SQLite user never needs it installed.
"""

from __future__ import annotations

import contextlib
import random
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from ._errors import Conflict, InvalidValue, NulInText, StoreBusy, StoreError

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg_pool import ConnectionPool, PoolTimeout
except ImportError as exc:  # pragma: no cover - depends on the install
    raise StoreError(
        "a postgresql:// database needs the optional PostgreSQL driver; "
        "install it with: pip install 'opgate[postgres]'"
    ) from exc

T = TypeVar("T")

LOCK_TIMEOUT_MS = 5000
"""How long a write waits for the write lock, like SQLite's busy timeout."""
POOL_MAX = 16
"""Connections per store (per process): one per transaction open at once."""
RETRY_ATTEMPTS = 6
RETRY_BACKOFF_S = (0.005, 0.02)
"""First wait between retries, a random span; it doubles with each attempt."""

# SQLSTATEs after which running the whole transaction again may succeed.
_RETRYABLE = (
    pg_errors.SerializationFailure,  # 40001
    pg_errors.DeadlockDetected,  # 40P01
    pg_errors.LockNotAvailable,  # 55P03: lock_timeout passed
)


def redacted(url: str) -> str:
    """The URL without its password, fit for messages and ``store.location``."""
    try:
        parts = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return url.split("@", 1)[-1] if "@" in url else url
    if "password" not in parts:
        return url
    scheme, rest = url.split("://", 1)
    credentials, _, host = rest.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}"


def store_error(exc: BaseException) -> StoreError | None:
    """The store error a psycopg or pool error stands for; None for anything else."""
    if isinstance(exc, _RETRYABLE):
        return StoreBusy(f"the database is busy ({_first_line(exc)}); try again")
    if isinstance(exc, psycopg.IntegrityError):
        return Conflict(f"the change breaks a storage constraint: {_first_line(exc)}")
    if isinstance(exc, pg_errors.NumericValueOutOfRange):
        return InvalidValue("value", "a number is too large to store (integers stop at 2^63 - 1)")
    if isinstance(exc, pg_errors.QueryCanceled):
        return StoreError(f"the statement was interrupted: {_first_line(exc)}")
    if isinstance(exc, psycopg.DataError):
        # psycopg refuses text with NUL characters before sending it: PostgreSQL text cannot hold them.
        if "NUL" in str(exc) and "0x00" in str(exc):
            return NulInText()
        return StoreError(f"storage error: {_first_line(exc)}")
    if isinstance(exc, PoolTimeout):
        return StoreBusy("every database connection of this process is in use; try again")
    if isinstance(exc, psycopg.OperationalError):
        return StoreBusy(f"the database connection failed ({_first_line(exc)}); try again")
    if isinstance(exc, psycopg.Error):
        return StoreError(f"storage error: {_first_line(exc)}")
    return None


TRANSLATED = (psycopg.Error, PoolTimeout)


@contextlib.contextmanager
def translated() -> Iterator[None]:
    """Re-raise psycopg errors as store errors, keeping the original as the cause."""
    try:
        yield
    except TRANSLATED as exc:
        raise store_error(exc) from exc


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


_POOLS: weakref.WeakSet[ConnectionPool] = weakref.WeakSet()


def open_pools() -> set[ConnectionPool]:
    """This process's pools not yet closed: each holds connections (and threads) until its store is closed."""
    return {pool for pool in list(_POOLS) if not pool.closed}


def open_pool(url: str) -> ConnectionPool:
    """A pool of autocommit connections (transactions are begun explicitly), opened and checked."""
    # One plain connection first: a pool that cannot connect retries for its whole timeout and then reports only
    # that no connection came (it read as "every connection is in use"); this says why, at once.
    connect_once(url).close()
    pool = ConnectionPool(
        url, min_size=1, max_size=POOL_MAX, open=False, timeout=30,
        kwargs={"autocommit": True}, name="opgate-store",
    )
    try:
        with translated():
            pool.open(wait=True, timeout=10)
    except (StoreError, PoolTimeout) as exc:
        pool.close(timeout=0)
        raise StoreError(f"cannot connect to {redacted(url)}: {exc}") from exc
    _POOLS.add(pool)
    return pool


def connect_once(url: str) -> psycopg.Connection:
    """One plain autocommit connection (migrations, inspection), errors translated."""
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=10)
    except psycopg.Error as exc:
        raise StoreError(f"cannot connect to {redacted(url)}: {_first_line(exc)}") from exc


def retrying(work: Callable[[], T], *, attempts: int = RETRY_ATTEMPTS) -> T:
    """Run ``work`` (one whole transaction) again after a retryable failure, with backoff.

    Only whole transactions can be retried: a serialization failure or a
    deadlock aborts everything the transaction did. The store retries its
    own transactions (migrations, seeding, resets, copies) here; a handler's
    transaction is retried by the dispatcher, which sees :class:`StoreBusy`
    as ``retryable``.
    """
    for attempt in range(attempts):
        try:
            return work()
        except StoreBusy:
            if attempt == attempts - 1:
                raise
        time.sleep(random.uniform(*RETRY_BACKOFF_S) * (2 ** attempt))
    raise AssertionError("unreachable")


def fetch(conn: psycopg.Connection, sql: str, params: Any = ()) -> list[tuple]:
    """Run one statement (already in PostgreSQL's dialect) and return its rows."""
    with translated():
        cursor = conn.execute(sql, list(params))
        return cursor.fetchall() if cursor.description is not None else []
