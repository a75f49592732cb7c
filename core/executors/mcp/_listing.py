"""One page of an upstream's ``tools/list``, each tool checked on its own.

The SDK checks a listing whole: one tool whose schema is not an object (or
whose name is not text) failed the whole answer, and every other tool of the
server was lost with it, behind a pydantic dump. Here the page is asked for
raw, each tool is checked against MCP's ``Tool`` alone, and a tool that does
not fit is refused with the reason while the others are listed. The tools
that fit are handed to the session as its own listing would have been (its
output-schema cache and, on 2026-07-28, its header maps), so calls behave as
after the SDK's ``list_tools``.

This reaches into the SDK's session (``_dispatcher``, ``_stamp``,
``_absorb_tool_listing``); mcp is pinned to 2.3.x for such uses.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
from pydantic import ValidationError

_REASON_CHARS = 300


class ToolsPage:
    """The tools of one page that fit (as JSON, the way they are pinned), those refused, and the next cursor."""

    def __init__(self, tools: list[dict[str, Any]], refused: list[tuple[str, str]], next_cursor: str | None):
        self.tools, self.refused, self.next_cursor = tools, refused, next_cursor


async def list_tools_page(session: Any, cursor: str | None) -> ToolsPage:
    params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
    data = types.ListToolsRequest(params=params).model_dump(by_alias=True, mode="json", exclude_none=True)
    options: dict[str, Any] = {}
    session._stamp(data, options)
    raw = await session._dispatcher.send_raw_request("tools/list", data.get("params"), options)
    listed = raw.get("tools") if isinstance(raw, dict) else None
    if not isinstance(listed, list):
        raise ValueError(f"its tools/list answer has no list of tools (found {type(listed).__name__})")
    fitting: list[types.Tool] = []
    refused: list[tuple[str, str]] = []
    for index, item in enumerate(listed):
        try:
            fitting.append(types.Tool.model_validate(item, by_name=False))
        except ValidationError as exc:
            refused.append((_name_of(item, index), _reason(exc)))
    next_cursor = raw.get("nextCursor")
    next_cursor = next_cursor if isinstance(next_cursor, str) and next_cursor else None
    result = session._absorb_tool_listing(types.ListToolsResult(tools=fitting), complete=cursor is None and next_cursor is None)
    return ToolsPage([tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in result.tools], refused, next_cursor)


def _name_of(item: Any, index: int) -> str:
    name = item.get("name") if isinstance(item, dict) else None
    return name if isinstance(name, str) and name else f"tool {index} (no name)"


def _reason(exc: ValidationError) -> str:
    """The first problem in a sentence: where in the definition, and what was wrong (never pydantic's whole dump)."""
    first = exc.errors(include_url=False)[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "the definition"
    text = f"{where}: {first.get('msg', 'invalid')}"
    more = exc.error_count() - 1
    if more:
        text += f" (and {more} more problem{'s' if more > 1 else ''})"
    return text[:_REASON_CHARS]
