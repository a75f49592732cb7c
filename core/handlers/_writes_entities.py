"""Create, update and delete one entity: the per-kind write ops, built from a table.

``onto.<kind>.create`` takes the kind's fields as arguments, ``onto.<kind>.update``
takes ``<kind>_id`` plus the fields to change, ``onto.<kind>.delete`` takes
``<kind>_id`` (and ``cascade`` for documents). The rules are those of
docs/ontology.md and the catalogue (fixtures/catalog/onto_write.json).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from ..exec._errors import ConflictError, InvalidArguments
from ..exec._handler import Handler, HandlerContext
from ..store._kinds import KINDS
from ._writes_checks import Problems, check_nesting, check_references, display_name, field_error, require_project
from ._writes_guidance import warn_if_no_template, warn_if_title_taken

# Kinds whose new entities are checked against the project's titles (seed 001: read before write).
TITLE_CHECKED = ("task", "document")

CREATABLE = ("task", "goal", "plan", "document")
UPDATABLE = ("project", "task", "goal", "plan", "document", "output", "milestone", "risk",
             "decision", "requirement")
DELETABLE = ("task", "goal", "plan", "document")

# Fields an update may never touch. Moving a document is move_document_in_tree's job,
# so that cycles and sibling order are handled in one place.
FIXED_ON_UPDATE: dict[str, frozenset[str]] = {
    kind: frozenset({"project_id"} | ({"parent_id", "position"} if kind == "document" else set()))
    for kind in UPDATABLE
}


def id_argument(kind: str) -> str:
    return f"{kind}_id"


def merge_props(current: Mapping[str, Any] | None, given: Mapping[str, Any]) -> dict[str, Any]:
    """Shallow merge: keys given replace the stored ones; a key given as null is removed."""
    merged = {**(current or {}), **given}
    return {key: value for key, value in merged.items() if value is not None}


def changed_fields(kind: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Fields whose value differs, in the kind's column order (``updated_at`` aside)."""
    return [name for name in KINDS[kind].columns
            if name != "updated_at" and before.get(name) != after.get(name)]


def create_entity(kind: str, ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``{<kind>: full row}``; references must point inside the same project."""
    project_id = args["project_id"]
    require_project(ctx.tx, project_id)
    problems = Problems()
    check_references(problems, ctx.tx, kind, args, project_id)
    check_nesting(problems, args.get("props"), ("props",))
    problems.raise_if_any(f"create the {kind}")
    if kind in TITLE_CHECKED:
        warn_if_title_taken(ctx, kind, project_id, args["title"])
    warn_if_no_template(ctx, kind, args.get("type_key"))
    return {kind: ctx.tx.insert(kind, args)}


def update_entity(kind: str, ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``{<kind>: full row, changed_fields}``; fields left out stay as they are."""
    id_arg = id_argument(kind)
    changes = {name: value for name, value in args.items() if name != id_arg}
    if not changes:
        raise InvalidArguments(f"nothing to change: pass at least one field of the {kind} besides {id_arg}")
    fixed = sorted(changes.keys() & FIXED_ON_UPDATE[kind])
    if fixed:
        hint = "; use move_document_in_tree to move a document" if kind == "document" else ""
        raise InvalidArguments(
            f"{', '.join(fixed)} cannot be changed by an update{hint}",
            field_errors=[field_error((name,), "cannot be changed by an update", "not_updatable") for name in fixed])
    problems = Problems()
    current = problems.lookup(ctx.tx, kind, args[id_arg], (id_arg,))
    problems.raise_if_any(f"update the {kind}")
    assert current is not None
    project_id = current["id"] if kind == "project" else current["project_id"]
    check_references(problems, ctx.tx, kind, changes, project_id)
    check_nesting(problems, changes.get("props"), ("props",))
    problems.raise_if_any(f"update the {kind}")
    if "type_key" in changes and changes["type_key"] != current.get("type_key"):
        warn_if_no_template(ctx, kind, changes["type_key"])
    if "props" in changes:
        changes["props"] = merge_props(current.get("props"), changes["props"])
    before, after = ctx.tx.update(kind, current["id"], changes)
    return {kind: after, "changed_fields": changed_fields(kind, before, after)}


def delete_entity(kind: str, ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """What went: the entity, the documents under it, and counts of edges and links.

    ``cleared`` lists the tasks that lost their goal, plan or milestone, with
    their titles, because the catalogue asks the model to tell the user which.
    """
    id_arg = id_argument(kind)
    problems = Problems()
    problems.lookup(ctx.tx, kind, args[id_arg], (id_arg,))
    problems.raise_if_any(f"delete the {kind}")
    removal = ctx.tx.delete(kind, args[id_arg], cascade=bool(args.get("cascade", False)))
    cleared = [{**entry, "name": display_name(entry["kind"], ctx.tx.get(entry["kind"], entry["id"]))}
               for entry in removal.cleared]
    return {
        "deleted": {"kind": kind, "id": removal.row["id"], "name": display_name(kind, removal.row)},
        "also_deleted": [{"kind": gone["kind"], "id": gone["id"], "name": display_name(gone["kind"], gone["row"])}
                         for gone in removal.deleted if gone["id"] != removal.row["id"]],
        "removed_edges": len(removal.edges_removed),
        "removed_links": len(removal.links_removed),
        "cleared": cleared,
    }


def request_template(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``{template}`` stored with status ``requested``; CONFLICT if (scope, type_key) exists."""
    existing = ctx.tx.list("template", {"scope": args["scope"], "type_key": args["type_key"]}, limit=1).rows
    if existing:
        found = existing[0]
        raise ConflictError(
            f"a {args['scope']} template with type_key {args['type_key']!r} already exists "
            f"({found['name']!r}, status {found['status']}); use it, or request another type_key",
            field_errors=[field_error(("type_key",), "already used by a template of this scope", "duplicate")],
            template_id=found["id"])
    return {"template": ctx.tx.insert("template", {**args, "status": "requested"})}


def entity_handlers() -> dict[str, Handler]:
    """The create/update/delete ops of every kind the catalogue offers them for."""
    table: dict[str, Handler] = {}
    for action, kinds, fn in (("create", CREATABLE, create_entity),
                              ("update", UPDATABLE, update_entity),
                              ("delete", DELETABLE, delete_entity)):
        for kind in kinds:
            # A create reads only to warn or fail early; tx.insert checks the references again under the lock.
            table[f"onto.{kind}.{action}"] = Handler(partial(fn, kind), reads_before_lock=action == "create")
    table["onto.template.request"] = Handler(request_template)
    return table
