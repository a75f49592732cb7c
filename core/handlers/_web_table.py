"""The ``util.web.*`` handler table, light to import: the fetcher, the HTML reader and ssl load on the first web call.

Every exec builds the whole handler table; only a web op needs what ``_web`` imports.
"""

from __future__ import annotations

from typing import Any

from ..exec._handler import Handler, HandlerContext


def _visit(ctx: HandlerContext, args: dict[str, Any]) -> Any:
    from ._web import DEFAULT_VISIT

    return DEFAULT_VISIT(ctx, args)


def _search(ctx: HandlerContext, args: dict[str, Any]) -> Any:
    from ._web_search import web_search

    return web_search(ctx, args)


HANDLERS: dict[str, Handler] = {
    "util.web.visit": Handler(_visit, external=True),
    "util.web.search": Handler(_search, external=True),
}
