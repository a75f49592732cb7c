"""What a search returns: ranked pointers to ops and to groups of ops."""

from __future__ import annotations

from typing import Any

from .._record import record


@record(frozen=True)
class SearchHit:
    """One op that matches a query. ``confidence`` is in [0, 1] and never rises down the list.

    ``suggested_args`` holds arguments the request already says, such as
    ``{"state_key": "done"}`` for "mark the task done"; front ends fill them
    into the op's form. Empty when the request says none.
    """

    op: str
    tool_name: str
    summary: str
    confidence: float
    suggested_args: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        found = {"op": self.op, "tool_name": self.tool_name, "summary": self.summary, "confidence": self.confidence}
        if self.suggested_args:
            found["suggested_args"] = dict(self.suggested_args)
        return found


@record(frozen=True)
class NodeHit:
    """A group of the namespace (``onto.document``) whose ops match a query; ``ops`` counts its visible ops."""

    path: str
    summary: str
    ops: int
    confidence: float

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "summary": self.summary, "ops": self.ops, "confidence": self.confidence}
