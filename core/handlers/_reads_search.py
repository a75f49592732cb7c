"""Finding things without knowing their kind, and browsing the template catalogue."""

from __future__ import annotations

from typing import Any

from ..exec._handler import HandlerContext
from ..store import ENTITY_KINDS
from ._reads_arguments import existing_project, option, total_of

TEMPLATE_ORDER = ("scope", "name")
"""Templates are a reference catalogue, not activity: grouped by scope, then by name."""


def search_ontology(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``onto.search``: fuzzy hits across kinds, ``{results: [{kind, id, name, project_id, score, snippet}]}``.

    The store does the typo tolerance ("API Spce" finds "API Spec"); scores
    run from 0 to 1, best first. Without ``types`` the ten entity kinds are
    searched; templates are not entities and have their own list op.
    """
    existing_project(ctx, args.get("project_id"))
    hits = ctx.tx.search_all(
        args["query"], kinds=args.get("types") or ENTITY_KINDS, project_id=args.get("project_id"),
        limit=option(ctx, args, "limit"),
    )
    return {"results": hits}


def list_templates(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``onto.template.list``: full template rows, ``{templates, total | total_at_least, has_more}``.

    With ``search`` the best matches come first; otherwise by scope and name.
    """
    filters = {name: args[name] for name in ("scope", "realm") if name in args}
    limit = option(ctx, args, "limit")
    if "search" in args:
        page = ctx.tx.search("template", args["search"], filters, limit=limit)
    else:
        page = ctx.tx.list("template", filters, limit=limit, order=TEMPLATE_ORDER)
    return {"templates": page.rows, **total_of(page), "has_more": len(page.rows) < page.total}
