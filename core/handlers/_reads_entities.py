"""list, search and details of the ten entity kinds, built from one table.

Every kind reads the same way; what differs is data: the plural its lists go
under, the argument that names one entity, and what its details add beyond
the row (a project nests its contents, a task its documents and edges).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._record import record
from ..exec._handler import Handler, HandlerContext
from ..exec._entity_ids import add_row_ids, row_ids_plan
from ..store import ENTITY_KINDS, KINDS
from ..store._kinds import EDGE_COLUMNS
from ..store._rows import json_columns_of
from ._reads_arguments import existing_project, option, paged
from ._summaries import PLURALS, abbreviate, summary_fields, summary_shape

NEWEST_FIRST = "-updated_at"
NESTED_LIMIT = 100
"""Most entities of one kind a project's details nest; the rest are one list call away."""

Opener = Callable[[HandlerContext, dict[str, Any]], dict[str, Any]]
"""A get's handler itself: its arguments hold the id under ``<kind>_id``."""


def _filters(kind: str, args: dict[str, Any]) -> dict[str, Any]:
    """The arguments that are columns of the kind (project_id, state_key, type_key, impact).

    The catalogue only offers filters that are columns, so the schema is the
    list of what may be filtered on; search, limit and offset are not columns.
    """
    columns = KINDS[kind].columns
    return {name: value for name, value in args.items() if name in columns}


def project_contents(ctx: HandlerContext, project: dict) -> dict[str, Any]:
    """Every kind in the project, abbreviated, most recently changed first, with counts."""
    contents: dict[str, Any] = {}
    counts: dict[str, int] = {}
    counts_at_least: dict[str, int] = {}
    for kind in ENTITY_KINDS:
        if kind == "project":
            continue
        plural = PLURALS[kind]
        page = ctx.tx.list(kind, {"project_id": project["id"]}, limit=NESTED_LIMIT, order=NEWEST_FIRST, shape=summary_shape(kind))
        contents[plural] = page.rows
        (counts if page.total_exact else counts_at_least)[plural] = page.total
        if page.total > len(page.rows):
            of = page.total if page.total_exact else f"at least {page.total}"
            ctx.warn(f"{plural}: showing the {len(page.rows)} most recently changed of {of}; "
                     f"list_onto_{plural} with project_id pages through all of them")
    return {**contents, "counts": counts, **({"counts_at_least": counts_at_least} if counts_at_least else {})}


_ROW_IDS = {kind: row_ids_plan(spec.columns, json_columns_of(spec)) for kind, spec in KINDS.items()}
_EDGE_IDS = row_ids_plan(EDGE_COLUMNS, ("props",))
_DOCUMENT_SHAPE = summary_shape("document")
_LINKED_DOCUMENT_IDS = row_ids_plan((*(key for key, _ in _DOCUMENT_SHAPE), "role"))


def open_row(ctx: HandlerContext, kind: str, id: str) -> dict[str, Any]:
    """``{kind: row}``, naming the row's ids (see ``HandlerContext.names``)."""
    row = ctx.tx.get(kind, id)
    named: dict[str, None] = {}
    add_row_ids(row, _ROW_IDS[kind], named)
    ctx.names_found(named)
    return {kind: row}


def open_task(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """The task of ``task_id``, its linked documents (abbreviated, with their role) and the edges touching it, naming their ids."""
    task, documents, edges = ctx.tx.task_details(args["task_id"], _DOCUMENT_SHAPE)
    named: dict[str, None] = {}
    add_row_ids(task, _ROW_IDS["task"], named)
    for document in documents:
        add_row_ids(document, _LINKED_DOCUMENT_IDS, named)
    for edge in edges:
        add_row_ids(edge, _EDGE_IDS, named)
    ctx.names_found(named)
    return {"task": task, "documents": documents, "edges": edges}


def open_project(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """The project of ``project_id`` and its contents (see :func:`project_contents`); its ids are found by walking the result."""
    project = ctx.tx.get("project", args["project_id"])
    return {"project": project, **project_contents(ctx, project)}


@record(frozen=True)
class KindReads:
    """How one kind is listed, searched and opened."""

    kind: str
    # What a get answers: by default the row alone (``open_row``). An opener is the get's handler itself
    # (see entity_handlers), one Python call less on every get than reaching it through ``get``.
    opener: Opener | None = None

    @property
    def plural(self) -> str:
        return PLURALS[self.kind]

    @property
    def id_arg(self) -> str:
        return f"{self.kind}_id"

    def list(self, ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
        filters = _filters(self.kind, args)
        limit, offset = option(ctx, args, "limit"), option(ctx, args, "offset")
        # The store makes each row the kind's summary (only those columns are read).
        page = ctx.tx.list(self.kind, filters, limit=limit, offset=offset, order=NEWEST_FIRST, shape=summary_shape(self.kind))
        if not page.rows:  # rows of a project prove it exists; an empty page must say whether it does
            existing_project(ctx, filters.get("project_id"))
        # A summary's only id field is its id, and the rest of a page names none.
        ctx.names([row["id"] for row in page.rows])
        return paged(self.plural, page.rows, page, limit, offset)

    def search(self, ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
        filters = _filters(self.kind, args)
        existing_project(ctx, filters.get("project_id"))
        limit, offset = option(ctx, args, "limit"), option(ctx, args, "offset")
        page = ctx.tx.search(self.kind, args["search"], filters, limit=limit, offset=offset, fields=summary_fields(self.kind))
        return self._page(page, limit, offset)

    def get(self, ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
        if self.opener is not None:
            return self.opener(ctx, args)
        return open_row(ctx, self.kind, args[self.kind + "_id"])  # id_arg's name, without the property's call on every get

    def _page(self, page, limit: int, offset: int) -> dict[str, Any]:
        items = [abbreviate(self.kind, row) for row in page.rows]
        return paged(self.plural, items, page, limit, offset)


ENTITY_READS: tuple[KindReads, ...] = (
    KindReads("project", opener=open_project),
    KindReads("task", opener=open_task),
    *(KindReads(kind) for kind in ENTITY_KINDS if kind not in ("project", "task")),
)
"""One entry per entity kind; each gives the kind's list, search and get ops."""


def entity_handlers() -> dict[str, Handler]:
    """``onto.<kind>.list`` / ``.search`` / ``.get`` for every kind of :data:`ENTITY_READS`."""
    table: dict[str, Handler] = {}
    for reads in ENTITY_READS:
        table[f"onto.{reads.kind}.list"] = Handler(reads.list)
        table[f"onto.{reads.kind}.search"] = Handler(reads.search)
        table[f"onto.{reads.kind}.get"] = Handler(reads.opener or reads.get)
    return table
