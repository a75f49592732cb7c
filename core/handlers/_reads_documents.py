"""Documents seen from a task (its attached documents) and from the tree (folders, paths)."""

from __future__ import annotations

from typing import Any

from ..exec._handler import HandlerContext
from ..store._kinds import FOLDER_TYPE_KEY
from ._reads_arguments import option
from ._summaries import abbreviate

PATH_SEPARATOR = " / "


def task_documents(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``onto.task.docs.list``: the task's documents, abbreviated, each with its link's role."""
    rows = ctx.tx.task_documents(args["task_id"], role=args.get("role"))
    return {
        "task_id": args["task_id"],
        "documents": [{**abbreviate("document", row), "role": row["role"]} for row in rows],
    }


def _tree_node(row: dict, children: list[dict]) -> dict[str, Any]:
    return {"id": row["id"], "title": row["title"], "type_key": row["type_key"], "children": children}


def _trimmed(rows: list[dict], include_documents: bool) -> list[dict[str, Any]]:
    """The store's nested rows cut down to tree nodes; optionally folders only.

    Without documents, a folder that sits under a plain document (the model
    allows it) moves up to the nearest kept ancestor, so that no folder
    disappears from a "folders only" view.
    """
    nodes: list[dict[str, Any]] = []
    for row in rows:
        children = _trimmed(row["children"], include_documents)
        if include_documents or row["type_key"] == FOLDER_TYPE_KEY:
            nodes.append(_tree_node(row, children))
        else:
            nodes.extend(children)
    return nodes


def document_tree(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``onto.document.tree.get``: ``{project_id, tree}``, siblings by position.

    ``max_depth`` counts the levels below the top one (1: the top level and
    their children), as the store does.
    """
    project_id = args["project_id"]
    ctx.tx.get("project", project_id)
    rows = ctx.tx.document_tree(project_id, root_id=args.get("root_id"), max_depth=args.get("max_depth"))
    return {"project_id": project_id, "tree": _trimmed(rows, option(ctx, args, "include_documents") is not False)}


def document_path(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``onto.document.path.get``: the chain from the tree root to the document."""
    rows = ctx.tx.document_path(args["document_id"])
    path = [{"id": row["id"], "title": row["title"]} for row in rows]
    return {"path": path, "path_text": PATH_SEPARATOR.join(step["title"] for step in path)}
