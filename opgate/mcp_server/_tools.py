"""The gateway's tools as MCP tools, and its answers as MCP tool results."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

import mcp_types as types
from mcp_types import SERVER_INFO_META_KEY
from mcp_types import methods as _methods
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from opgate.core.modes import ToolSpec
from opgate.core.safe_json import scrub_text


DEFER_LOADING_META = "io.opgate/defer_loading"
"""Marks a tool of the deferred mode: a host with tool search may keep its schema out of the context until searched."""


def listed_tools(specs: Iterable[ToolSpec]) -> list[types.Tool]:
    """``tools/list``: each tool with its compact description, input schema and hints."""
    return [
        types.Tool(
            name=spec.name,
            title=spec.annotations.get("title"),
            description=spec.description,
            input_schema=spec.parameters,
            annotations=types.ToolAnnotations.model_validate(spec.annotations) if spec.annotations else None,
            meta={DEFER_LOADING_META: True} if spec.defer_loading else None,
        )
        for spec in specs
    ]


def is_error(answer: Any) -> bool:
    """Whether an answer is a failed call, shown to the host as ``isError: true``.

    An envelope or help/search payload fails when ``ok`` is false. A batch
    (a list of step envelopes) fails only when no step succeeded: that covers
    a batch rejected as a whole (one error envelope) and a batch that did
    nothing, so a one-step batch reads like the exec it wraps; when some steps
    succeeded, the failed ones are data next to results the model needs.
    """
    if isinstance(answer, list):
        return not any(isinstance(step, dict) and step.get("ok") for step in answer)
    return isinstance(answer, dict) and answer.get("ok") is False


def _encoded(answer: Any) -> tuple[dict[str, Any], str]:
    """The answer as a JSON object and as its compact text, encoded once.

    Structured content is an object through MCP 2025-11-25, so a batch goes
    under ``results``. Decoding the text turns anything json could only
    stringify (dates, paths) into plain JSON, so both forms say the same.
    Text that is not Unicode (a lone surrogate: bytes that were not UTF-8,
    echoed back from a search query or a help path) becomes U+FFFD, as in an
    exec envelope: no JSON line can carry it, and the whole answer was lost.
    """
    value = {"results": answer} if isinstance(answer, list) else answer
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    if not text.isascii():
        text = scrub_text(text)  # written raw, never escaped, with ensure_ascii off: replaced in the text, they are gone from both forms
    return json.loads(text), text


def tool_result(answer: Any) -> types.CallToolResult:
    """The answer both as structured content and as its JSON text, for hosts that read only text."""
    content, text = _encoded(answer)
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=content, is_error=is_error(answer))


def tool_result_wire(answer: Any, version: str, stamp: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """:func:`tool_result` as the SDK puts it on the wire for protocol ``version``, built directly.

    The same dict as the SDK's dump, its check against the version's result
    schema and its 2026-07-28 additions (``resultType``, the server's
    identity in ``_meta``), key for key (tests/mcp/test_tool_call_path.py
    compares them for every version). A text with ``NaN`` or ``Infinity``
    in it goes the SDK's way: only its schema check says what becomes of
    numbers JSON has no word for.
    """
    content, text = _encoded(answer)
    modern = version in MODERN_PROTOCOL_VERSIONS
    if "NaN" in text or "Infinity" in text:
        dumped = tool_result(answer).model_dump(by_alias=True, mode="json", exclude_none=True)
        wire = _methods.serialize_server_result("tools/call", version, dumped)
        if modern and wire.get("resultType") is None:
            wire["resultType"] = "complete"
    elif modern:
        wire = {"content": [{"text": text, "type": "text"}], "isError": is_error(answer), "resultType": "complete", "structuredContent": content}
    else:
        wire = {"content": [{"text": text, "type": "text"}], "isError": is_error(answer), "structuredContent": content}
    if modern:
        wire["_meta"] = {SERVER_INFO_META_KEY: stamp()}
    return wire
