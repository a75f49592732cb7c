"""What read handlers share: argument defaults from the catalogue, and paged results."""

from __future__ import annotations

from typing import Any

from ..exec._handler import HandlerContext
from ..store import Page


def option(ctx: HandlerContext, args: dict[str, Any], name: str) -> Any:
    """``args[name]``, or the default the op's parameter schema declares for it.

    The defaults live in the catalogue (limit 50, direction both, ...); reading
    them from there keeps one source of truth whether or not the dispatcher
    filled them in already.
    """
    if name in args:
        return args[name]
    schema = ctx.record.parameters.get("properties", {}).get(name, {})
    return schema.get("default")


def existing_project(ctx: HandlerContext, project_id: str | None) -> None:
    """Raise NOT_FOUND for a ``project_id`` filter that names no project.

    Without this a mistyped id would read as "the project has nothing", which
    sends a model down the wrong path.
    """
    if project_id is not None:
        ctx.tx.get("project", project_id)


def total_of(page: Page) -> dict[str, int]:
    """``{"total": n}`` when the store counted every match, else ``{"total_at_least": n}``.

    The store stops counting past ``COUNT_CAP`` matches; naming the key for
    what the number is keeps a lower bound from being read as a count.
    """
    return {"total" if page.total_exact else "total_at_least": page.total}


def paged(key: str, items: list[Any], page: Page, limit: int, offset: int) -> dict[str, Any]:
    """The list result shape: ``{<key>: items, total | total_at_least, limit, offset, has_more}``."""
    return {
        key: items,
        **total_of(page),
        "limit": limit,
        "offset": offset,
        "has_more": offset + len(page.rows) < page.total,
    }
