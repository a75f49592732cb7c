"""Documents in their tree and on their tasks: ``onto.document.tree.move`` and
``onto.task.doc.create_or_attach``."""

from __future__ import annotations

from typing import Any

from ..exec._errors import InvalidArguments
from ..exec._handler import HandlerContext
from ._writes_checks import Problems, field_error, require_project
from ._writes_guidance import warn_if_no_template, warn_if_title_taken

# Arguments that describe a new document; they make no sense when attaching one.
NEW_DOCUMENT_ARGS = ("type_key", "content", "parent_id")
_KEEP_PARENT = object()


def move_document(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``{document, old_parent_id, new_parent_id, position}``.

    ``new_parent_id`` left out keeps the parent (a reorder), null moves to the
    root; ``position`` left out puts the document after its last sibling.
    """
    tx, project_id = ctx.tx, args["project_id"]
    require_project(tx, project_id)
    problems = Problems()
    document = problems.in_project(tx, "document", args["document_id"], project_id, ("document_id",))
    wanted_parent = args.get("new_parent_id", _KEEP_PARENT)
    if wanted_parent is not _KEEP_PARENT and wanted_parent is not None:
        problems.in_project(tx, "document", wanted_parent, project_id, ("new_parent_id",))
    problems.raise_if_any("move the document")
    assert document is not None
    new_parent_id = document["parent_id"] if wanted_parent is _KEEP_PARENT else wanted_parent
    position = args.get("position")
    if position is None:
        # The store leaves a document alone when neither parent nor position is
        # given; "absent puts it last" needs the last index spelt out.
        siblings = tx.document_children(project_id, new_parent_id)
        position = sum(1 for sibling in siblings if sibling["id"] != document["id"])
    _, moved = tx.move_document(document["id"], new_parent_id, position)
    return {"document": moved, "old_parent_id": document["parent_id"],
            "new_parent_id": moved["parent_id"], "position": moved["position"]}


def create_or_attach_task_document(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``{document, link, created}``: attach ``document_id`` or create ``title`` and attach it."""
    _check_one_way(args)
    tx = ctx.tx
    problems = Problems()
    task = problems.lookup(tx, "task", args["task_id"], ("task_id",))
    problems.raise_if_any("give the task a document")
    assert task is not None
    project_id = task["project_id"]
    document = None
    if "document_id" in args:
        document = problems.in_project(tx, "document", args["document_id"], project_id, ("document_id",))
    elif args.get("parent_id") is not None:
        problems.in_project(tx, "document", args["parent_id"], project_id, ("parent_id",))
    problems.raise_if_any("give the task a document")
    created = document is None
    if document is None:
        warn_if_title_taken(ctx, "document", project_id, args["title"])
        warn_if_no_template(ctx, "document", args.get("type_key"))
        document = tx.insert("document", {"project_id": project_id, "title": args["title"],
                                          **{name: args[name] for name in NEW_DOCUMENT_ARGS if name in args}})
    link = tx.link_task_document(task["id"], document["id"], args.get("role", "reference"))
    return {"document": document, "link": link, "created": created}


def _check_one_way(args: dict[str, Any]) -> None:
    attach, create = "document_id" in args, "title" in args
    if attach == create:
        message = ("pass document_id (attach an existing document) or title (create one), not both"
                   if attach else "pass document_id to attach an existing document, or title to create one")
        raise InvalidArguments(message, field_errors=[
            field_error((name,), message, "one_of") for name in ("document_id", "title")])
    stray = [name for name in NEW_DOCUMENT_ARGS if name in args] if attach else []
    if stray:
        raise InvalidArguments(
            f"{', '.join(stray)} only describe a new document; leave them out when attaching document_id",
            field_errors=[field_error((name,), "only allowed together with title", "depends_on_title")
                          for name in stray])
