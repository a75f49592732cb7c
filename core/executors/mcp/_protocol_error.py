"""An upstream MCP server's JSON-RPC error as the envelope error it means for the caller."""

from __future__ import annotations

from typing import Any

from ...exec._errors import InternalError, InvalidArguments, NotFoundError, OpError


def protocol_error(exc: Any, op: str, name: str, message: str) -> OpError:
    """A JSON-RPC error from the upstream: bad arguments and unknown tools are the caller's; the rest is the server's."""
    from mcp_types import INVALID_PARAMS, METHOD_NOT_FOUND, REQUEST_TIMEOUT

    if exc.code == INVALID_PARAMS:
        return InvalidArguments(f"upstream {name!r} refused the arguments of {op}: {message}", upstream=name)
    if exc.code == METHOD_NOT_FOUND:
        return NotFoundError(f"upstream {name!r} does not know {op}'s tool: {message}", upstream=name)
    if exc.code == REQUEST_TIMEOUT:
        return InternalError(f"{op} on upstream {name!r} timed out: {message}", retryable=True, upstream=name)
    return InternalError(f"{op} on upstream {name!r} failed: {message} (error {exc.code})", retryable=True, upstream=name)
