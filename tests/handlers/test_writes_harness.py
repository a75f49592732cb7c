"""Shared fixtures and helpers for the write-handler tests (imported by the other
``test_writes_*`` modules), plus checks that the handler table is complete.

Handlers run against a real demo workspace in ``tmp_path``, called directly
inside a store write transaction the way the dispatcher calls them.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from opgate.core import Gateway
from opgate.core.exec._handler import HandlerContext
from opgate.core.exec._session import Session
from opgate.core.handlers._write_table import HANDLERS
from opgate.core.settings import GatewaySettings
from opgate.core.store import open_store

NOW = "2027-01-15T10:00:00Z"
REGISTRY = Gateway().registry
WRITE_OPS = sorted(r.op for r in REGISTRY if r.kind == "write")
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def uid(prefix: str, n: int) -> str:
    """The demo workspace's readable fixed ids (docs/ontology.md)."""
    return f"{prefix}-0000-4000-8000-{n:012d}"


def project(n): return uid("10000000", n)
def task(n): return uid("20000000", n)
def goal(n): return uid("30000000", n)
def plan(n): return uid("40000000", n)
def doc(n): return uid("50000000", n)
def output(n): return uid("60000000", n)
def milestone(n): return uid("70000000", n)
def risk(n): return uid("80000000", n)
def decision(n): return uid("90000000", n)
def edge(n): return uid("e0000000", n)


@pytest.fixture
def demo(tmp_path, new_workspace):
    """A fresh demo workspace whose clock stands still, so runs compare equal (on each backend)."""
    store = open_store(new_workspace(tmp_path), clock=lambda: NOW)
    yield store
    store.close()


class Ran:
    """What one direct handler call returned and warned."""

    def __init__(self, result: Any, warnings: list[str], changes: dict):
        self.result, self.warnings, self.changes = result, warnings, changes


def run(store, op: str, args: dict[str, Any], *, dry_run: bool = False) -> Ran:
    """Call the handler of ``op`` inside a write transaction, as the dispatcher does."""
    with store.write(dry_run=dry_run) as tx:
        ctx = HandlerContext(op=op, record=REGISTRY.get(op), tx=tx, session=Session(),
                             settings=GatewaySettings(), dry_run=dry_run)
        result = HANDLERS[op].fn(ctx, dict(args))
        changes = tx.changes.to_dict()
    return Ran(result, ctx.warnings, changes)


def row(store, kind: str, id: str) -> dict | None:
    with store.read() as tx:
        return tx.find(kind, id)


def children(store, project_id: str, parent_id: str | None) -> list[str]:
    with store.read() as tx:
        return [d["id"] for d in tx.document_children(project_id, parent_id)]


def known_ids(dump: dict[str, list[dict]]) -> set[str]:
    return {r["id"] for rows in dump.values() for r in rows if "id" in r}


def without_new_ids(value: Any, old_ids: set[str]) -> Any:
    """``value`` with every id that did not exist before renamed ``new-1``, ``new-2``...

    Two runs from the same state create rows in the same order, so their results
    match after this renaming exactly when they match "ids aside".
    """
    names: dict[str, str] = {}

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        if isinstance(node, str) and _UUID.match(node) and node not in old_ids:
            return names.setdefault(node, f"new-{len(names) + 1}")
        return node

    return walk(value)


def test_every_write_op_has_a_handler():
    assert sorted(HANDLERS) == WRITE_OPS
    assert len(WRITE_OPS) == 25


def test_no_write_handler_reaches_outside_the_store():
    assert not any(handler.external for handler in HANDLERS.values())
