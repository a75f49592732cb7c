"""Edges and containment: ``onto.edge.link``, ``onto.edge.unlink`` and
``onto.project.graph.reorganize``."""

from __future__ import annotations

from typing import Any

from ..exec._errors import ConflictError
from ..exec._handler import HandlerContext
from ..store import NotFound
from ._writes_checks import Problems, check_nesting, display_name, field_error, require_project

# The task columns a reorganize move may set, and the kind each points at.
MOVE_COLUMNS = {"plan_id": "plan", "goal_id": "goal", "supporting_milestone_id": "milestone"}
EDGE_ENDS = (("src_kind", "src_id"), ("dst_kind", "dst_id"))


def link_entities(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``{edge}``. The ends may sit in different projects; the same edge twice is CONFLICT."""
    problems = Problems()
    for kind_arg, id_arg in EDGE_ENDS:
        problems.lookup(ctx.tx, args[kind_arg], args[id_arg], (id_arg,))
    if args["src_id"] == args["dst_id"]:
        problems.add(field_error(("dst_id",), "an edge cannot link an entity to itself", "self_link"))
    check_nesting(problems, args.get("props"), ("props",))
    problems.raise_if_any("link the entities")
    _refuse_existing_edge(ctx.tx, args, ())
    return {"edge": ctx.tx.add_edge(args["src_kind"], args["src_id"], args["dst_kind"], args["dst_id"],
                                    args["rel"], args.get("props"))}


def unlink_edge(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``{removed: edge}``; NOT_FOUND if the edge is already gone."""
    return {"removed": ctx.tx.remove_edge(args["edge_id"])}


def reorganize_project_graph(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``{applied, changes}``: re-file tasks, remove edges, add edges, all or nothing.

    Every item is checked before anything is written, and every problem is
    reported at once. Removals run before additions so that one call can
    replace an edge. The dispatcher rolls the transaction back for a dry run;
    this handler does the same work either way.
    """
    tx, project_id = ctx.tx, args["project_id"]
    require_project(tx, project_id)
    problems = Problems()
    moves = _planned_moves(tx, project_id, args.get("moves", []), problems)
    removals = _planned_removals(tx, project_id, args.get("remove_edge_ids", []), problems)
    additions = _planned_additions(tx, project_id, args.get("add_edges", []), problems)
    problems.raise_if_any("reorganize the project")
    removed_keys = {(e["src_id"], e["dst_id"], e["rel"]) for e in removals}
    for index, edge in enumerate(additions):
        if (edge["src_id"], edge["dst_id"], edge["rel"]) not in removed_keys:
            _refuse_existing_edge(tx, edge, ("add_edges", index))

    changes: list[dict[str, Any]] = []
    for task, columns in moves:
        before, after = tx.update("task", task["id"], columns)
        fields = {name: {"before": before[name], "after": after[name]}
                  for name in columns if before[name] != after[name]}
        if fields:
            changes.append({"action": "move", "kind": "task", "id": task["id"],
                            "title": task["title"], "fields": fields})
        else:
            ctx.warn(f"task {task['id']} ({task['title']!r}) already sits where the move puts it")
    for edge in removals:
        changes.append({"action": "remove_edge", "edge": tx.remove_edge(edge["id"])})
    for edge in additions:
        added = tx.add_edge(edge["src_kind"], edge["src_id"], edge["dst_kind"], edge["dst_id"],
                            edge["rel"], edge.get("props"))
        changes.append({"action": "add_edge", "edge": added})
    return {"applied": not ctx.dry_run, "changes": changes}


def _planned_moves(tx: Any, project_id: str, moves: list[dict], problems: Problems) -> list[tuple[dict, dict]]:
    planned, seen = [], set()
    for index, move in enumerate(moves):
        path = ("moves", index)
        if move.get("kind", "task") != "task":
            problems.add(field_error((*path, "kind"), "only tasks can be moved", "not_in_enum", allowed=["task"]))
            continue
        columns = {name: move[name] for name in MOVE_COLUMNS if name in move}
        if not columns:
            problems.add(field_error(path, f"say where the task goes: give one of {', '.join(MOVE_COLUMNS)}",
                                     "missing_required"))
        if move["id"] in seen:
            problems.add(field_error((*path, "id"), f"task {move['id']} is moved twice in one call", "duplicate"))
        seen.add(move["id"])
        task = problems.in_project(tx, "task", move["id"], project_id, (*path, "id"))
        for name, value in columns.items():
            if value is not None:
                problems.in_project(tx, MOVE_COLUMNS[name], value, project_id, (*path, name))
        if task is not None and columns:
            planned.append((task, columns))
    return planned


def _planned_removals(tx: Any, project_id: str, edge_ids: list[str], problems: Problems) -> list[dict]:
    ours = {edge["id"]: edge for edge in tx.project_edges(project_id)}
    planned = []
    for index, edge_id in enumerate(edge_ids):
        if edge_id in ours:
            planned.append(ours[edge_id])
        elif _edge_exists(tx, edge_id):
            problems.add(field_error(("remove_edge_ids", index),
                                     f"edge {edge_id} touches no entity of project {project_id}", "other_project"))
        else:
            problems.add(field_error(("remove_edge_ids", index), f"no edge has id {edge_id}", "not_found"),
                         missing=True)
    return planned


def _planned_additions(tx: Any, project_id: str, edges: list[dict], problems: Problems) -> list[dict]:
    planned, seen = [], set()
    for index, edge in enumerate(edges):
        path = ("add_edges", index)
        check_nesting(problems, edge.get("props"), (*path, "props"))
        # A list, not a generator: both ends are checked so every problem is reported.
        ends_ok = all([problems.in_project(tx, edge[kind_arg], edge[id_arg], project_id, (*path, id_arg))
                       for kind_arg, id_arg in EDGE_ENDS])
        key = (edge["src_id"], edge["dst_id"], edge["rel"])
        if edge["src_id"] == edge["dst_id"]:
            problems.add(field_error(path, "an edge cannot link an entity to itself", "self_link"))
        elif key in seen:
            problems.add(field_error(path, "the same edge is listed twice", "duplicate"))
        elif ends_ok:
            planned.append(edge)
        seen.add(key)
    return planned


def _edge_exists(tx: Any, edge_id: str) -> bool:
    try:
        tx.get_edge(edge_id)
    except NotFound:
        return False
    return True


def _refuse_existing_edge(tx: Any, edge: dict[str, Any], path: tuple) -> None:
    existing = tx.find_edge(edge["src_id"], edge["dst_id"], edge["rel"])
    if existing is None:
        return
    src_kind, src = tx.get_entity(edge["src_id"])
    dst_kind, dst = tx.get_entity(edge["dst_id"])
    raise ConflictError(
        f"{src_kind} {display_name(src_kind, src)!r} already {edge['rel']} {dst_kind} "
        f"{display_name(dst_kind, dst)!r} (edge {existing['id']}); nothing to add",
        field_errors=[field_error(path, "this edge already exists", "duplicate")] if path else [],
        edge_id=existing["id"])
