"""A dry-run of a whole collection: every call runs against a scratch copy of the workspace.

A dry-run of one write rolls its transaction back, so an id it creates is
gone before the next call could use it. A collection's dry-run therefore
copies the workspace (SQLite's online backup, consistent even while others
write; a PostgreSQL workspace is copied from one snapshot into a SQLite
file, as ``opgate db copy`` does) to a temporary file and runs the calls there: writes of the built-in
store really run on the copy, so later calls see what earlier ones did, and
the copy is deleted afterwards. The workspace itself is never written.
Writes that reach outside the workspace (HTTP APIs, MCP upstreams) are sent
with ``dry_run=True`` instead, so nothing real happens there either.
"""

from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import apsw

from .._gateway import Gateway
from ..executors import Executors, StoreExecutor
from ..store._copy import copy_workspace as copy_between
from ..store._locate import is_postgres_url
from ._errors import CollectionError


class _BorrowedExecutors(Executors):
    """The rehearsal's own store executor; every other op runs on the source gateway's executors."""

    def __init__(self, store: StoreExecutor, source: Executors):
        super().__init__(store)
        self._source = source

    def for_record(self, record: Any) -> Any:
        if record.binding.kind == "store":
            return super().for_record(record)
        return self._source.for_record(record)

    def close(self) -> None:
        pass  # the borrowed executors are the source gateway's to close


def _approve(_request: Any) -> bool:
    return True  # a confirmation on the scratch copy writes nothing anyone keeps


def copy_workspace(source: Gateway, target: Path) -> None:
    """Copy the source gateway's workspace to the SQLite file ``target``.

    A SQLite workspace is copied with the online backup API; a PostgreSQL
    one row by row from one snapshot (``opgate db copy``'s code), with every
    id and time kept, so the calls see the same data they would see there.
    """
    _ = source.store  # opened first: a workspace that does not exist yet is created (with the demo) before it is copied
    location = source.db_location
    if is_postgres_url(location):
        copy_between(location, target)
        return
    if location in ("", ":memory:") or not Path(location).is_file():
        raise CollectionError([f"the workspace {location or '(in memory)'} is not a database file, so a dry-run of a collection cannot copy it"])
    destination = apsw.Connection(str(target))
    try:
        origin = apsw.Connection(location, flags=apsw.SQLITE_OPEN_READONLY)
        try:
            with destination.backup("main", origin, "main") as backup:
                while not backup.done:
                    backup.step(1024)
        finally:
            origin.close()
    finally:
        destination.close()


def rehearses(gateway: Gateway, op: str) -> bool:
    """Whether a write of ``op`` can really run on the scratch copy (a built-in store op that stays inside the workspace)."""
    record = gateway.registry.get(op)
    if record is None or record.binding.kind != "store":
        return False
    handler = gateway.executors.store.handlers.get(record.op)
    return handler is not None and not handler.external


@contextmanager
def rehearsal_gateway(source: Gateway) -> Iterator[Gateway]:
    """A gateway over a scratch copy of ``source``'s workspace, writes on and confirmations approved; removed on exit."""
    folder = Path(tempfile.mkdtemp(prefix="opgate-rehearsal-"))
    try:
        copy = folder / "rehearsal.db"
        copy_workspace(source, copy)
        rehearsal: Gateway | None = None
        store = StoreExecutor(lambda: rehearsal.store, source.executors.store.handlers, source.settings)  # type: ignore[union-attr]
        rehearsal = Gateway(
            source.registry, contexts=source.contexts, context=source.context, db_path=copy, settings=source.settings,
            allow_write=True, approver=_approve, call_log=False, executors=_BorrowedExecutors(store, source.executors),
        )
        try:
            yield rehearsal
        finally:
            rehearsal.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
