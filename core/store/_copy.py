"""Moving a workspace between databases (SQLite file to PostgreSQL and back).

Every row keeps its id and times; documents keep their places in the tree;
task-document links and edges follow; the pins of upstream tools (a person's
approvals) come along. The target must hold no rows: a copy never merges.
After the copy, every table is counted on both sides and a difference is an
error. Idempotency keys and the call log stay behind: they describe calls
made against the source.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ._demo import load_workspace
from ._errors import StoreError
from ._kinds import EDGE_COLUMNS, KINDS, LINK_COLUMNS
from ._locate import connect_store
from ._rows import decode, json_columns_of
from ._workspace_check import COUNTED_TABLES

_PIN_COLUMNS = ("upstream", "tool", "digest", "definition", "pinned_at")


@dataclass(frozen=True)
class CopyReport:
    """Rows per table in the source and, after the copy, in the target."""

    source: dict[str, int]
    target: dict[str, int]

    @property
    def matches(self) -> bool:
        return self.source == self.target


def copy_workspace(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> CopyReport:
    """Copy everything the workspace at ``source`` holds into the empty one at ``target``."""
    with connect_store(source) as src:
        data, pins = _read_all(src)
        before = _counts(src)
    with connect_store(target) as dst:
        held = _counts(dst)
        if sum(held.values()):
            raise StoreError(f"{dst.location} already holds rows ({sum(held.values())}); copy into an empty workspace")
        dst.replace_contents(lambda tx: _write_all(tx, data, pins))
        after = _counts(dst)
    report = CopyReport(before, after)
    if not report.matches:
        wrong = {t: (before[t], after.get(t)) for t in before if before[t] != after.get(t)}
        raise StoreError(f"the copy does not match its source: {wrong} (source, target); the target was written, check it")
    return report


def _read_all(store) -> tuple[dict, list[tuple]]:
    data: dict[str, list[dict]] = {}
    with store.read() as tx:
        for spec in KINDS.values():
            rows = tx._fetch(f"SELECT {', '.join(spec.columns)} FROM {spec.table} ORDER BY seq")
            data[spec.table] = [decode(spec.columns, r, json_columns_of(spec)) for r in rows]
        edges = tx._fetch(f"SELECT {', '.join(EDGE_COLUMNS)} FROM edges ORDER BY seq")
        data["edges"] = [decode(EDGE_COLUMNS, r, frozenset({"props"})) for r in edges]
        links = tx._fetch(f"SELECT {', '.join(LINK_COLUMNS)} FROM task_documents ORDER BY created_at, rowid")
        data["task_documents"] = [dict(zip(LINK_COLUMNS, r)) for r in links]
        pins = [tuple(r) for r in tx._fetch(f"SELECT {', '.join(_PIN_COLUMNS)} FROM upstream_pins ORDER BY upstream, tool")]
    return data, pins


def _write_all(tx, data: dict, pins: list[tuple]) -> None:
    load_workspace(tx, data)
    for pin in pins:
        tx._run(f"INSERT INTO upstream_pins ({', '.join(_PIN_COLUMNS)}) VALUES (?, ?, ?, ?, ?)", pin)


def _counts(store) -> dict[str, int]:
    with store.read() as tx:
        counts = {table: tx._fetch(f"SELECT count(*) FROM {table}")[0][0] for table in COUNTED_TABLES}
        counts["upstream_pins"] = tx._fetch("SELECT count(*) FROM upstream_pins")[0][0]
    return counts
