"""A ``tools/call`` answer as an op's result, or as the failure it reports.

``structuredContent`` is the result when the server gives it. Otherwise the
content blocks are: one text block is its text; several blocks are a list in
which text stays text, images and audio are summarised by type and size (a
model gains nothing from base64), and resources keep their uri and text.
A block's annotations (who it is for, ``audience``; how much it matters,
``priority``; ``lastModified``) stay with it; those of a lone text block,
which the result gives as plain text, are :func:`content_annotations`.

``isError: true`` is a failure with the server's own words. It is INTERNAL
unless the words clearly say what else it is (not found, invalid, denied).
"""

from __future__ import annotations

import base64
import re
from typing import Any

from ...exec._errors import InternalError, InvalidArguments, NotFoundError, OpError, PermissionDenied

_KINDS: tuple[tuple[re.Pattern[str], type[OpError]], ...] = (
    (re.compile(r"\b(not found|no such|does not exist|doesn't exist|unknown (file|entity|id|item))\b", re.I), NotFoundError),
    (re.compile(r"\b(permission denied|access denied|forbidden|not allowed|outside (the )?allowed|unauthori[sz]ed)\b", re.I), PermissionDenied),
    (re.compile(r"\b(invalid|validation|must be|is required|missing required|expected .* got)\b", re.I), InvalidArguments),
)
_TEXT_LIMIT = 2000


def tool_result(answer: Any) -> Any:
    """The op's result from a ``CallToolResult`` (as the SDK parsed it)."""
    if answer.structured_content is not None:
        return answer.structured_content
    blocks = [_block(block) for block in answer.content]
    if len(blocks) == 1 and blocks[0].get("type") == "text":
        return blocks[0]["text"]
    return blocks


def content_annotations(answer: Any) -> dict[str, Any] | None:
    """The annotations of an answer given as one text block (its result is the text alone), else None."""
    if answer.structured_content is not None or len(answer.content) != 1:
        return None
    return _annotations(answer.content[0]) if getattr(answer.content[0], "type", None) == "text" else None


def _annotations(block: Any) -> dict[str, Any] | None:
    annotations = getattr(block, "annotations", None)
    if annotations is None:
        return None
    dumped = annotations.model_dump(mode="json", exclude_none=True, by_alias=True)
    return dumped or None


def tool_error(answer: Any, upstream: str, tool: str) -> OpError:
    """The failure an ``isError`` answer reports, in the server's words."""
    texts = [block.text for block in answer.content if getattr(block, "type", None) == "text"]
    text = " ".join(t.strip() for t in texts if t.strip())[:_TEXT_LIMIT] or "the tool reported an error without saying why"
    error = next((kind for pattern, kind in _KINDS if pattern.search(text)), InternalError)
    return error(f"{tool} on upstream {upstream!r} failed: {text}", upstream=upstream, tool=tool)


# The SDK client checks an answer against the tool's declared outputSchema and
# raises a plain RuntimeError saying so (mcp 2.3.x, pinned); these are its words.
_OUTPUT_SCHEMA_BROKEN = re.compile(r"^(Invalid structured content returned by tool |Tool .* has an output schema but did not return structured content)")


def breaks_output_schema(exc: Exception, upstream: str, op: str, text: str) -> OpError | None:
    """The failure for an answer its own tool's output schema refuses: the tool is at fault, so a retry cannot help."""
    if not (isinstance(exc, RuntimeError) and _OUTPUT_SCHEMA_BROKEN.match(str(exc))):
        return None
    return InternalError(
        f"{op}: upstream {upstream!r} answered in a shape its own output schema does not allow ({text}); sending the call again will not help",
        retryable=False, upstream=upstream, output_schema_broken=True,
    )


def _block(block: Any) -> dict[str, Any]:
    entry = _block_content(block)
    annotations = _annotations(block)
    if annotations:
        entry["annotations"] = annotations
    return entry


def _block_content(block: Any) -> dict[str, Any]:
    kind = getattr(block, "type", None)
    if kind == "text":
        return {"type": "text", "text": block.text}
    if kind in ("image", "audio"):
        return {"type": kind, "mimeType": block.mime_type, "bytes": _decoded_size(block.data)}
    if kind == "resource":
        resource = block.resource
        entry: dict[str, Any] = {"type": "resource", "uri": str(resource.uri)}
        if getattr(resource, "mime_type", None):
            entry["mimeType"] = resource.mime_type
        if getattr(resource, "text", None) is not None:
            entry["text"] = resource.text
        elif getattr(resource, "blob", None) is not None:
            entry["bytes"] = _decoded_size(resource.blob)
        return entry
    if kind == "resource_link":
        entry = {"type": "resource_link", "uri": str(block.uri), "name": block.name}
        if getattr(block, "mime_type", None):
            entry["mimeType"] = block.mime_type
        return entry
    return {"type": str(kind)}


def _decoded_size(data: str) -> int:
    try:
        return len(base64.b64decode(data, validate=False))
    except (ValueError, TypeError):
        return len(data)
