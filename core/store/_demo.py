"""The demo workspace: where it lives, loading it, and opening the default store.

A fresh database gets the demo loaded on first open, so that every front end
starts with something to browse. ``reset_demo`` throws the file away and
starts again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import platformdirs

from ._errors import StoreError
from ._kinds import KINDS
from ._protocol import OntologyStore, StoreWriteTransaction
from ._rows import utc_now
from ._sqlite_store import SQLiteStore

DEMO_FILE = "demo_workspace.json"
DEMO_VERSION = 1
# Parents before the rows that point at them.
_LOAD_ORDER = ("template", "project", "goal", "plan", "milestone", "document", "task",
               "output", "risk", "decision", "requirement")


def default_path() -> Path:
    """``workspace.db`` in the user data directory (``$XDG_DATA_HOME/opgate`` on Linux)."""
    return Path(platformdirs.user_data_dir("opgate", appauthor=False)) / "workspace.db"


def demo_fixture_path() -> Any:
    """The packaged demo fixture, or the repository's copy when running from source."""
    try:
        packaged = resources.files("opgate.fixtures") / DEMO_FILE
        if packaged.is_file():
            return packaged
    except ModuleNotFoundError:
        pass
    return Path(__file__).resolve().parents[2] / "fixtures" / DEMO_FILE


def read_workspace(path: str | os.PathLike[str] | None = None) -> dict:
    source = demo_fixture_path() if path is None else Path(path)
    if not source.is_file():
        raise StoreError(f"demo workspace not found at {source}; pass demo=False to start empty")
    data = json.loads(source.read_text(encoding="utf-8"))
    if data.get("version") != DEMO_VERSION:
        raise StoreError(f"{source}: expected workspace version {DEMO_VERSION}, found {data.get('version')!r}")
    return data


def load_demo(store: OntologyStore, path: str | os.PathLike[str] | None = None) -> dict[str, int]:
    """Load a workspace file (default: the demo) in one transaction; return counts per section."""
    data = read_workspace(path)
    with store.write() as tx:
        return load_workspace(tx, data)


def load_workspace(tx: StoreWriteTransaction, data: Mapping[str, Any]) -> dict[str, int]:
    """Insert every row of a workspace document, keeping its ids and times."""
    counts = {}
    for kind in _LOAD_ORDER:
        section = KINDS[kind].table
        rows = list(data.get(section, []))
        if kind == "document":
            rows = _parents_first(rows)
        for index, row in enumerate(rows):
            _with_location(f"{section}[{index}]", lambda: tx.insert(kind, row))
        counts[section] = len(rows)
    for index, edge in enumerate(data.get("edges", [])):
        _with_location(f"edges[{index}]", lambda: tx.add_edge(
            edge["src_kind"], edge["src_id"], edge["dst_kind"], edge["dst_id"], edge["rel"],
            edge.get("props"), edge_id=edge.get("id"), created_at=edge.get("created_at")))
    for index, link in enumerate(data.get("task_documents", [])):
        _with_location(f"task_documents[{index}]", lambda: tx.link_task_document(
            link["task_id"], link["document_id"], link.get("role", "reference"),
            created_at=link.get("created_at")))
    counts["edges"] = len(data.get("edges", []))
    counts["task_documents"] = len(data.get("task_documents", []))
    return counts


def open_store(
    path: str | os.PathLike[str] | None = None, *, demo: bool = True,
    clock: Callable[[], str] = utc_now,
) -> SQLiteStore:
    """Open (creating if needed) a workspace; a fresh one gets the demo when ``demo``.

    "Fresh" means never opened before: a workspace first opened without the
    demo, or emptied by its user, is not filled later.
    """
    store = SQLiteStore(path or default_path(), clock=clock)
    try:
        data = read_workspace() if demo and not store.is_seeded() else None
        store.seed_once(None if data is None else lambda tx: load_workspace(tx, data))
    except BaseException:
        store.close()
        raise
    return store


def reset_demo(path: str | os.PathLike[str] | None = None) -> SQLiteStore:
    """Delete the workspace file (and its WAL files) and open a fresh demo.

    Close every other store on this file first; open connections would keep
    writing to the unlinked file.
    """
    target = Path(path or default_path())
    _refuse_unless_workspace(target)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    return open_store(target, demo=True)


_SQLITE_HEADER = b"SQLite format 3\x00"


def _refuse_unless_workspace(target: Path) -> None:
    """Reset deletes a file: make sure it is a database and not, say, someone's notes or a device."""
    if not target.exists():
        if not target.parent.is_dir():
            raise StoreError(f"{target.parent} is not a folder; nothing to reset there")
        return
    if not target.is_file():
        raise StoreError(f"{target} is not a regular file; refusing to delete it")
    with target.open("rb") as handle:
        header = handle.read(len(_SQLITE_HEADER))
    if header and header != _SQLITE_HEADER:
        raise StoreError(f"{target} is not an SQLite database; refusing to delete it")


def _parents_first(documents: list[dict]) -> list[dict]:
    by_id = {d["id"]: d for d in documents}

    def depth(document: dict) -> int:
        steps, parent = 0, document.get("parent_id")
        while parent in by_id and steps <= len(by_id):
            steps, parent = steps + 1, by_id[parent].get("parent_id")
        return steps

    return sorted(documents, key=lambda d: (depth(d), d.get("position") or 0))


def _with_location(where: str, action: Callable[[], Any]) -> None:
    try:
        action()
    except StoreError as exc:
        exc.add_note(f"while loading the workspace file at {where}")
        raise
