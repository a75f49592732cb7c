"""The SQLite transactions handed to handlers, assembled from one mixin per concern."""

from __future__ import annotations

from collections.abc import Callable

import apsw

from ._changes import ChangeSet
from ._sqlite_bookkeeping import BookkeepingReads, BookkeepingWrites
from ._sqlite_conn import run
from ._sqlite_delete import DeleteRules
from ._sqlite_graph import GraphReads
from ._sqlite_pins import PinReads, PinWrites
from ._sqlite_search import SearchReads
from ._sqlite_serving import ServingReads, ServingWrites
from ._sqlite_tokens import TokenReads, TokenWrites
from ._sqlite_tree import TreeReads


class SQLiteReadTransaction(SearchReads, TreeReads, GraphReads, BookkeepingReads, PinReads, TokenReads, ServingReads):
    """Reads over one snapshot (a deferred ``BEGIN``)."""


class SQLiteWriteTransaction(SearchReads, DeleteRules, BookkeepingWrites, PinWrites, TokenWrites, ServingWrites):
    """Reads and writes under the write lock (``BEGIN IMMEDIATE``)."""

    def __init__(self, conn: apsw.Connection, clock: Callable[[], str], dry_run: bool, *, lock_late: bool = False) -> None:
        super().__init__(conn, clock)
        self._locked = not lock_late
        self.changes = ChangeSet()
        self.dry_run = dry_run
        self.rolled_back = False

    def rollback(self) -> None:
        """End the transaction now and discard its writes; ``changes`` stays readable."""
        self._check_open()
        run(self._conn, "ROLLBACK")
        self._open = False
        self.rolled_back = True
