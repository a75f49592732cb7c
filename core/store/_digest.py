"""A fingerprint of the stored state one transaction looked at.

A dry-run returns it; when the same call later runs for real, a different
fingerprint means something it read has changed in between and the preview
no longer holds. Only state that existed before the transaction counts: rows
the transaction wrote itself (with fresh ids and times) would make two runs
over the same data disagree.

Reading costs next to nothing: a row is noted as the tuple of values the
database returned (every column, in the table's order), and hashing waits for
:meth:`ReadLog.digest`, which does it in one pass. The stored values are the
row's content as exactly as its decoded form (JSON columns are stored in one
canonical text), so a changed row still gives a changed digest.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from .._json_encoder import encoder_made_once
from ._errors import StoreError

# ``json.dumps`` with options builds an encoder on every call; a write's digest and its query signatures pass here.
# What is hashed was read from the store or passed the input checks, so it holds no cycle.
_canonical = encoder_made_once(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def _strings_in(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings_in(item)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _strings_in(item)


class ReadLog:
    """The pre-existing rows and query results a transaction has observed."""

    def __init__(self) -> None:
        self._rows: dict[tuple[str, str], tuple] = {}
        # The canonical text of each query -> (its total, the ids it returned), hashed only by digest().
        self._queries: dict[str, tuple[Any, list[str]]] = {}
        self._written: set[tuple[str, str]] = set()
        self._written_ids: set[str] = set()

    def wrote(self, kind: str, id: str) -> None:
        """Mark a row as written: later reads of it are the transaction's own work."""
        self._written.add((kind, id))
        self._written_ids.add(id)

    def is_own(self, kind: str, id: str) -> bool:
        return (kind, id) in self._written

    def saw(self, kind: str, id: str, values: tuple) -> None:
        """Note a row as read (its stored values, every column), unless already seen or written here."""
        key = (kind, id)
        if key not in self._rows and key not in self._written:
            self._rows[key] = values

    def saw_rows(self, kind: str, fetched: Iterable[tuple]) -> None:
        """:meth:`saw` for every row of a result whose first column is the id (a page of a list, say)."""
        rows, written = self._rows, self._written
        for values in fetched:
            key = (kind, values[0])
            if key not in rows and key not in written:
                rows[key] = values

    def saw_query(self, signature: Any, total: Any, keys: Iterable[tuple[str, str]]) -> None:
        """Note a list or search result, so that rows appearing later are noticed too.

        Rows this transaction wrote are left out of the ids: their ids are
        random, but a rerun writes the same number of them, so ``total`` agrees.
        The first result noted for a query is the one that counts.
        """
        # A query about something this transaction created (the children of a new
        # project) is its own work too: the new id differs from run to run.
        # Set lookups keep this linear: a bulk insert asks it once per document.
        if self._written_ids and any(text in self._written_ids for text in _strings_in(signature)):
            return
        written = self._written
        ids = [id for kind, id in keys if (kind, id) not in written] if written else [id for _, id in keys]
        # The signature is written down now (its filters may be the caller's objects); the rest is ours.
        self._queries.setdefault(_canonical(signature), (total, ids))

    def digest(self) -> str:
        """Hex sha256 over every observation, in sorted order.

        One hash over the ``repr`` of the sorted rows and queries: every value
        in them is a string, a number, None or a list or tuple of those (rows
        as the database returned them, a query's canonical text, its total and
        ids), whose ``repr`` is exact and stable. Hashing each query apart
        first, as this did before, cost three hashes and a JSON text per
        create and told nothing more.
        """
        # Keys are unique, so sorting never compares the values (which may hold None).
        return hashlib.sha256(repr((sorted(self._rows.items()), sorted(self._queries.items()))).encode()).hexdigest()


class UnobservedReads(ReadLog):
    """The read log of a read transaction opened with ``observe=False``: it notes nothing.

    A plain read hands out no digest, so noting what it read (every column
    of every row, the canonical text of every query) was work thrown away;
    without it a list also fetches only the columns it shows.

    It keeps nothing either, so every such transaction shares one,
    :data:`UNOBSERVED` (a plain get made two dicts and two sets for it).
    """

    # What is_own reads; every other method that would read ReadLog's fields is replaced below, so it holds none.
    _written: frozenset = frozenset()

    def __init__(self) -> None:
        pass

    def wrote(self, kind: str, id: str) -> None:
        raise StoreError("a transaction opened with observe=False is a read: it writes nothing")

    def saw(self, kind: str, id: str, values: tuple) -> None:
        pass

    def saw_rows(self, kind: str, fetched: Iterable[tuple]) -> None:
        pass

    def saw_query(self, signature: Any, total: Any, keys: Iterable[tuple[str, str]]) -> None:
        pass

    def digest(self) -> str:
        raise StoreError("this read transaction was opened with observe=False, so it has no state digest")


UNOBSERVED = UnobservedReads()
"""The read log every ``observe=False`` transaction shares: it notes nothing, so there is nothing to share."""
