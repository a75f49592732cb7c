"""Help for the root and for groups: every entry when the answer is small, pages of at most 4 KB when not.

A group of a big catalogue can hold thousands of subgroups (Twilio copied
seventy times puts 3,000 products under ``twilio``), and listing them all
made a 201 KB answer. So an answer is first built whole, in name order, as
it always was; if it is over :data:`PAGE_BYTES` (compact JSON), or a cursor
asks for a later page, it is paged instead: the subgroups largest first
(each with its counts), then the ops in name order, as many as fit, with a
``page`` object saying how many there are in all and the cursor of the next
page. Nothing is built for entries off the page.

An op's own help is not paged; a page always holds at least one entry, so
``include_schemas`` with an op whose schema alone is bigger than a page
gives a page over the bound.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .._cursor import make_cursor, read_cursor
from ..registry._record import OpRecord
from ._tree import HelpNode

# The bound on a root or group answer, in bytes of compact JSON.
PAGE_BYTES = 4096
# A node with this many ops or fewer lists them all; a bigger one lists its subgroups.
FLAT_LISTING_LIMIT = 20
# The root listing names each group's biggest subgroups, so one help('') call maps the namespace.
ROOT_SUBGROUP_LIMIT = 14
# ``<group>.read`` and ``<group>.write`` list a group's ops by kind, unless a real op has that name.
KIND_SUFFIXES = ("read", "write")
# Answers with more entries than this cannot fit a page: they are paged without being built whole.
_WHOLE_ENTRY_LIMIT = 200


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":")))


def op_line(record: OpRecord) -> dict[str, Any]:
    line: dict[str, Any] = {"op": record.op, "kind": record.kind, "summary": record.summary}
    extra = [b for b in record.badges if b not in ("read", "write")]
    if extra:
        line["badges"] = extra
    return line


class Listing:
    """One root or group answer: its fixed fields, then its subgroups and its ops, each line made on demand."""

    def __init__(self, head: dict[str, Any], groups: list[HelpNode], ops: list[str], *, flat: bool, group_line: Callable[[HelpNode], dict[str, Any]], record_of: Callable[[str], OpRecord | None], schemas: bool, next_hint: str | None):
        # flat: a list of ops (with their schemas if asked); otherwise subgroups, then the ops directly inside.
        self.flat = flat
        self.head = head
        self.groups = groups
        self.ops = ops
        self.group_line = group_line
        self.record_of = record_of
        self.schemas = schemas
        self.next_hint = next_hint

    def _records(self, ops: list[str]) -> list[OpRecord]:
        return [r for r in map(self.record_of, ops) if r is not None]

    def whole(self) -> dict[str, Any]:
        """Every entry, in name order: the answer as it is when it fits."""
        payload = dict(self.head)
        if not self.flat:
            payload["groups"] = [self.group_line(node) for node in self.groups]
        records = self._records(self.ops)
        if records or self.flat:
            payload["list"] = [op_line(r) for r in records]
        if self.flat and self.schemas:
            payload["schemas"] = {r.op: r.parameters for r in records}
        if self.next_hint:
            payload["next"] = self.next_hint
        return payload

    def answer(self, cursor: str | None, version: str) -> dict[str, Any]:
        """The whole answer if it fits and no cursor is given; otherwise the page ``cursor`` points at."""
        if not cursor and len(self.groups) + len(self.ops) <= _WHOLE_ENTRY_LIMIT:
            whole = self.whole()
            if _size(whole) <= PAGE_BYTES:
                return whole
        request = {"path": self.head["path"], "schemas": self.schemas, "entries": [len(self.groups), len(self.ops)]}
        return self._page(read_cursor(cursor, version, request), version, request)

    def _page(self, offset: int, version: str, request: dict[str, Any]) -> dict[str, Any]:
        groups = sorted(self.groups, key=lambda node: (-node.total, node.name))
        total = len(groups) + len(self.ops)
        payload = dict(self.head)
        group_lines: list[dict[str, Any]] = []
        op_lines: list[dict[str, Any]] = []
        schemas: dict[str, Any] = {}
        longest = make_cursor(total, version, request)
        page: dict[str, Any] = {"offset": offset, "groups": len(groups), "ops": len(self.ops), "shown": total, "next_cursor": longest}
        # Room for the page object, the lists' keys and the hint; every entry then adds its own size.
        used = _size({**payload, "page": page, "groups": [], "list": [], "schemas": {}, "next": self._page_hint(longest)})
        position = offset
        while position < total:
            if position < len(groups):
                entry, target = self.group_line(groups[position]), group_lines
                cost = _size(entry) + 1
            else:
                record = self.record_of(self.ops[position - len(groups)])
                if record is None:
                    position += 1
                    continue
                entry, target = op_line(record), op_lines
                cost = _size(entry) + 1
                if self.schemas:
                    schemas[record.op] = record.parameters
                    cost += _size({record.op: record.parameters})
            if used + cost > PAGE_BYTES and position > offset:
                if self.schemas and target is op_lines:
                    schemas.pop(entry["op"], None)
                break
            used += cost
            target.append(entry)
            position += 1
        if not self.flat:
            payload["groups"] = group_lines
        if self.ops or self.flat:
            payload["list"] = op_lines
        if self.flat and self.schemas:
            payload["schemas"] = schemas
        page["shown"] = position - offset
        page["next_cursor"] = make_cursor(position, version, request) if position < total else None
        payload["page"] = page
        payload["next"] = self._page_hint(page["next_cursor"])
        return payload

    def _page_hint(self, cursor: str | None) -> str:
        path = self.head["path"]
        if cursor:
            return f"help(path={path!r}, cursor={cursor!r}) gives the next page; " + (self.next_hint or "")
        return self.next_hint or "exec(op, args) runs an op"


def root_listing(root: HelpNode, summaries: dict[str, str], record_of: Callable[[str], OpRecord | None]) -> Listing:
    def line(node: HelpNode) -> dict[str, Any]:
        found: dict[str, Any] = {"name": node.name, "ops": node.total}
        if node.name in summaries:
            found["summary"] = summaries[node.name]
        subgroups = sorted((c for c in node.children.values() if c.children), key=lambda c: (-c.total, c.name))
        if subgroups:
            found["holds"] = [c.name for c in subgroups[:ROOT_SUBGROUP_LIMIT]] + (["…"] if len(subgroups) > ROOT_SUBGROUP_LIMIT else [])
        return found

    head = {"ok": True, "path": "root", "type": "root", "ops": root.total}
    groups = [root.children[name] for name in sorted(root.children)]
    return Listing(head, groups, [], flat=False, group_line=line, record_of=record_of, schemas=False, next_hint="help(path=<group>) lists a group; exec(op, args) runs an op")


def _group_line(node: HelpNode) -> dict[str, Any]:
    return {"name": node.name, "ops": node.total, "read": node.reads, "write": node.writes}


def group_listing(node: HelpNode, summaries: dict[str, str], kind_of: Callable[[str], str | None], record_of: Callable[[str], OpRecord | None], *, kind: str | None = None, include_schemas: bool = False) -> Listing:
    """A group: its ops when there are few (or a kind is asked for), its subgroups (with counts) when there are many."""
    head: dict[str, Any] = {"ok": True, "path": node.path + (f".{kind}" if kind else ""), "type": "group"}
    if node.path in summaries:
        head["summary"] = summaries[node.path]
    head["ops"] = node.total if kind is None else (node.reads if kind == "read" else node.writes)
    if kind is not None or node.total <= FLAT_LISTING_LIMIT:
        ops = [op for op in node.op_names() if kind is None or kind_of(op) == kind]
        hint = None
        if kind is None and node.reads and node.writes and not set(KIND_SUFFIXES) & set(node.children):
            hint = f"help('{node.path}.read') or help('{node.path}.write') splits them by kind"
        head["list"] = []
        return Listing(head, [], ops, flat=True, group_line=_group_line, record_of=record_of, schemas=include_schemas, next_hint=hint)
    children = [node.children[name] for name in sorted(node.children)]
    groups = [child for child in children if child.children]
    direct = [child.path for child in children if child.is_op]
    return Listing(head, groups, direct, flat=False, group_line=_group_line, record_of=record_of, schemas=False, next_hint=f"help('{node.path}.<name>') opens a group")
