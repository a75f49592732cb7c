"""How entities hang together: a project's graph, one entity's edges and its neighbours."""

from __future__ import annotations

from typing import Any

from ..exec._errors import NotFoundError
from ..exec._handler import HandlerContext
from ..store import ENTITY_KINDS, KINDS
from ._reads_arguments import option
from ._summaries import abbreviate, entity_reference

# (child kind, column, parent kind) for every reference column but project_id:
# task.plan_id, task.goal_id, task.supporting_milestone_id, document.parent_id.
# Read from the store's kind table so a new reference column shows up here too.
CONTAINMENT_COLUMNS: tuple[tuple[str, str, str], ...] = tuple(
    (spec.kind, field.name, field.references)
    for spec in KINDS.values()
    for field in spec.fields
    if field.references is not None and field.name != "project_id"
)


def _containment(rows_by_kind: dict[str, list[dict]], node_ids: set[str]) -> list[dict[str, Any]]:
    links = []
    for kind, column, parent_kind in CONTAINMENT_COLUMNS:
        for row in rows_by_kind.get(kind, []):
            parent_id = row.get(column)
            if parent_id is not None and parent_id in node_ids:
                links.append({"kind": kind, "id": row["id"], "field": column,
                              "parent_kind": parent_kind, "parent_id": parent_id})
    return links


def project_graph(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``onto.project.graph.get``: nodes, the edges between them, and column containment.

    ``include`` narrows the node kinds; the project node is always present.
    Edges and containment links are kept only when both ends are nodes.
    """
    project = ctx.tx.get("project", args["project_id"])
    kinds = args.get("include") or [k for k in ENTITY_KINDS if k != "project"]
    rows_by_kind = {kind: ctx.tx.list(kind, {"project_id": project["id"]}).rows for kind in kinds}
    nodes = [entity_reference("project", project)]
    nodes += [entity_reference(kind, row) for kind, rows in rows_by_kind.items() for row in rows]
    node_ids = {node["id"] for node in nodes}
    edges = [e for e in ctx.tx.project_edges(project["id"])
             if e["src_id"] in node_ids and e["dst_id"] in node_ids]
    return {
        "project": abbreviate("project", project),
        "nodes": nodes,
        "edges": edges,
        "containment": _containment(rows_by_kind, node_ids),
    }


def entity_relationships(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``onto.entity.relationships.get``: ``{entity, edges, total, has_more}``."""
    kind, row = ctx.tx.get_entity(args["entity_id"])
    edges = ctx.tx.edges_of(row["id"], direction=option(ctx, args, "direction") or "both",
                            rel=args.get("rel"))
    limit = option(ctx, args, "limit")
    return {"entity": entity_reference(kind, row), "edges": edges[:limit],
            "total": len(edges), "has_more": len(edges) > limit}


def _entity_of_kind(ctx: HandlerContext, entity_id: str, expected: str | None) -> tuple[str, dict]:
    kind, row = ctx.tx.get_entity(entity_id)
    if expected is not None and expected != kind:
        raise NotFoundError(
            f"no {expected} has id {entity_id}: it is a {kind}. "
            f"Pass entity_kind {kind!r} or leave entity_kind out.",
            kind=expected, id=entity_id, actual_kind=kind,
        )
    return kind, row


def _linked_item(ctx: HandlerContext, entity_id: str, edge: dict) -> dict[str, Any]:
    outgoing = edge["src_id"] == entity_id
    other_kind, other_id = (edge["dst_kind"], edge["dst_id"]) if outgoing else (edge["src_kind"], edge["src_id"])
    other = entity_reference(other_kind, ctx.tx.get(other_kind, other_id))
    return {"edge_id": edge["id"], "rel": edge["rel"],
            "direction": "outgoing" if outgoing else "incoming", **other}


def linked_entities(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``onto.entity.links.get``: the entities at the other end of each edge.

    ``direction`` is ``outgoing`` when the asked-for entity is the edge's source.
    """
    kind, row = _entity_of_kind(ctx, args["entity_id"], args.get("entity_kind"))
    edges = ctx.tx.edges_of(row["id"], rel=args.get("rel"))
    limit = option(ctx, args, "limit")
    linked = [_linked_item(ctx, row["id"], edge) for edge in edges[:limit]]
    return {"entity": entity_reference(kind, row), "linked": linked,
            "total": len(edges), "has_more": len(edges) > limit}
