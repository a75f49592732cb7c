"""Documents seen from a task (its attached documents) and from the tree (folders, paths)."""

from __future__ import annotations

from typing import Any

from ..exec._handler import HandlerContext
from ..store._kinds import FOLDER_TYPE_KEY
from ._reads_arguments import option
from ._summaries import abbreviate
from ._tree_view import kept_children, nest

PATH_SEPARATOR = " / "
# The deepest a tree answer nests (the catalogue's max_depth stops here too):
# about 45 levels of JSON with the envelope around it, well inside what JSON
# parsers accept (the MCP SDK's client gives up near 128).
TREE_DEPTH_LIMIT = 20


def task_documents(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``onto.task.docs.list``: the task's documents, abbreviated, each with its link's role."""
    rows = ctx.tx.task_documents(args["task_id"], role=args.get("role"))
    return {
        "task_id": args["task_id"],
        "documents": [{**abbreviate("document", row), "role": row["role"]} for row in rows],
    }


def _tree_node(row: dict) -> dict[str, Any]:
    return {"id": row["id"], "title": row["title"], "type_key": row["type_key"]}


def document_tree(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``onto.document.tree.get``: ``{project_id, tree}``, siblings by position.

    ``max_depth`` counts the levels below the top one (1: the top level and
    their children), as the store does; past ``TREE_DEPTH_LIMIT`` levels the
    tree is cut whatever was asked. A node whose children are cut carries
    ``more``: how many documents are hidden and the call that shows them.
    Without documents, a folder under a plain document (the model allows it)
    moves up to the nearest folder above it, so that no folder disappears
    from a "folders only" view.
    """
    project_id = args["project_id"]
    ctx.tx.get("project", project_id)
    include_documents = option(ctx, args, "include_documents") is not False
    rows = ctx.tx.document_tree(project_id, root_id=args.get("root_id"))
    tops, below = kept_children(rows, lambda row: include_documents or row["type_key"] == FOLDER_TYPE_KEY)
    asked = args.get("max_depth")
    depth = min(asked if asked is not None else TREE_DEPTH_LIMIT, TREE_DEPTH_LIMIT)
    cut_by_limit = []

    def cut(row: dict, hidden: int) -> dict[str, Any]:
        cut_by_limit.append(asked is None or asked > depth)
        next_args = {"project_id": project_id, "root_id": row["id"]}
        if not include_documents:
            next_args["include_documents"] = False
        return {"hidden": hidden, "next": {"op": ctx.op, "args": next_args}}

    tree = nest(tops, below, max_depth=depth, shape=_tree_node, cut=cut)
    if any(cut_by_limit):
        ctx.warn(f"the tree is deeper than {TREE_DEPTH_LIMIT} levels, the most one answer nests; nodes with "
                 "'more' hide what is below them: call this op again with root_id set to such a node to see it")
    return {"project_id": project_id, "tree": tree}


def document_path(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``onto.document.path.get``: the chain from the tree root to the document."""
    rows = ctx.tx.document_path(args["document_id"])
    path = [{"id": row["id"], "title": row["title"]} for row in rows]
    return {"path": path, "path_text": PATH_SEPARATOR.join(step["title"] for step in path)}
