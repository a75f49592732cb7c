"""The demo workspace: where it lives, loading it, and opening the default store.

A fresh database gets the demo loaded on first open, so that every front end
starts with something to browse. ``reset_demo`` empties a workspace and
loads the demo again, in place.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .._user_dirs import user_data_dir
from ._errors import NotAWorkspace, StoreError
from ._kinds import KINDS
from ._locate import connect_store, is_postgres_url
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
    return user_data_dir() / "workspace.db"


def demo_fixture_path() -> Any:
    """The packaged demo fixture, or the repository's copy when running from source."""
    from importlib import resources  # here: it loads zipfile and its readers, which opening a workspace never needs

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
    store = connect_store(default_path() if path is None else path, clock=clock)
    try:
        data = read_workspace() if demo and not store.is_seeded() else None
        store.seed_once(None if data is None else lambda tx: load_workspace(tx, data))
    except BaseException:
        store.close()
        raise
    return store


def reset_demo(path: str | os.PathLike[str] | None = None, *, force: bool = False) -> SQLiteStore:
    """Replace what the workspace holds with a fresh demo, in place; return the open store.

    Only an opgate workspace (or a path with no file yet) is reset: anything
    else raises :class:`NotAWorkspace` and is left untouched. Call
    :func:`inspect_workspace` first to show what will be replaced. The reset
    is one write transaction on the same file, so front ends that have it
    open see the demo on their next call and lose none of their later writes.

    ``path`` may be a ``postgresql://`` URL. A workspace holding a project
    that is not one of the demo's is someone's work: it is refused with
    :class:`NotAWorkspace` unless ``force``.
    """
    if path is not None and not str(os.fspath(path)).strip():
        # Path("") is ".": say what is wrong instead of looking at the current folder.
        raise StoreError("the database path is empty; name a file, or leave it out for the default workspace")
    from ._workspace_check import inspect_workspace  # here: opening a workspace never inspects it this way

    target = default_path() if path is None else (str(path) if is_postgres_url(str(path)) else Path(path))
    held = inspect_workspace(target)
    data = read_workspace()
    if held is not None and not force:
        refuse_unless_demo(held, data)
    store = connect_store(target)
    try:
        store.replace_contents(lambda tx: load_workspace(tx, data))
    except BaseException:
        store.close()
        raise
    return store


def refuse_unless_demo(held: Any, demo: Mapping[str, Any]) -> None:
    """Raise :class:`NotAWorkspace` if the workspace holds a project the demo does not have."""
    foreign = sorted(set(held.project_ids) - {p["id"] for p in demo.get("projects", [])})
    if foreign:
        raise NotAWorkspace(
            f"{held.path} holds {len(foreign)} project(s) that are not the demo's (first: {foreign[0]}), "
            "so it is not the demo workspace; a reset would destroy them. Pass --force (force=True) "
            "if you really mean to replace it, or copy it away first with `opgate db copy`.")


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
