"""Pinning upstream tool definitions, so that a changed tool cannot slip in (OWASP MCP03).

The first time an upstream is listed, each tool's definition (name, title,
description, inputSchema, outputSchema, annotations) is hashed and pinned in
the workspace. On later listings a tool whose definition differs from its
pin, and a tool that was not there before, is quarantined: shown with a diff,
never callable, never exported to a model, until a person approves it
(``opgate upstreams approve NAME [TOOL]``). A pinned tool that disappeared is
reported as removed.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

PINNED_FIELDS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations")
# The row that says an upstream was listed before (see the 0004 migration).
LISTED_MARK = ""
CHANGED = "changed"
NEW = "new"


def definition_of(tool: dict[str, Any]) -> dict[str, Any]:
    """The parts of a tool a model reads or relies on: what a pin covers."""
    return {key: tool[key] for key in PINNED_FIELDS if tool.get(key) is not None}


def digest_of(definition: dict[str, Any]) -> str:
    text = json.dumps(definition, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def definition_diff(old: dict[str, Any] | None, new: dict[str, Any]) -> str:
    """A unified diff of two definitions, as pretty JSON, for a person to read."""
    before = json.dumps(old, indent=2, sort_keys=True, ensure_ascii=False).splitlines() if old is not None else []
    after = json.dumps(new, indent=2, sort_keys=True, ensure_ascii=False).splitlines()
    return "\n".join(difflib.unified_diff(before, after, "approved", "offered now", lineterm="", n=2))


@dataclass(frozen=True)
class Quarantine:
    """Why one tool is held back, and what changed."""

    tool: str
    why: str  # CHANGED or NEW
    diff: str

    def to_dict(self) -> dict[str, Any]:
        return {"tool": self.tool, "why": self.why, "diff": self.diff}


@dataclass
class PinReview:
    """What one listing means against the pins: what may run, what is held back, what went away."""

    first: bool
    quarantined: dict[str, Quarantine] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)
    # Pins to write now: every tool on a first listing, nothing otherwise.
    to_pin: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)


def review(pins: dict[str, dict[str, Any]], tools: list[dict[str, Any]]) -> PinReview:
    """Compare a listing with the pins (``{tool: {digest, definition}}``) of its upstream."""
    definitions = {tool["name"]: definition_of(tool) for tool in tools}
    if not pins:
        to_pin = {name: (digest_of(d), d) for name, d in definitions.items()}
        to_pin[LISTED_MARK] = ("", {})
        return PinReview(first=True, to_pin=to_pin)
    result = PinReview(first=False)
    for name, definition in definitions.items():
        pin = pins.get(name)
        if pin is None:
            result.quarantined[name] = Quarantine(name, NEW, definition_diff(None, definition))
        elif pin["digest"] != digest_of(definition):
            result.quarantined[name] = Quarantine(name, CHANGED, definition_diff(pin["definition"], definition))
    result.removed = sorted(name for name in pins if name != LISTED_MARK and name not in definitions)
    return result


def approvals(tools: list[dict[str, Any]], review_: PinReview, tool: str | None) -> tuple[dict[str, tuple[str, dict[str, Any]]], list[str]]:
    """The pins to write and the pins to drop when a person approves ``tool`` (``None``: everything held back)."""
    by_name = {t["name"]: definition_of(t) for t in tools}
    names = [tool] if tool is not None else list(review_.quarantined)
    to_pin = {name: (digest_of(by_name[name]), by_name[name]) for name in names if name in by_name}
    to_drop = list(review_.removed) if tool is None else ([tool] if tool in review_.removed else [])
    return to_pin, to_drop
