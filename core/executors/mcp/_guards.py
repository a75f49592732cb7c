"""What the configuration and the pins make of an upstream's tool before it becomes an op.

Four guards, in order: a server whose hints are not trusted has every tool
read as a write; a tool the configuration's ``reads`` names is a read,
whatever the hints say; a tool the configuration's ``confirm`` names (or whose kind
it names: ``"destructive"``, ``"writes"``) needs a person's yes; and a tool
held back by its pin is browse-only until approved.
"""

from __future__ import annotations

from ..._record import replace
from ...catalog._mcp import metadata_from_annotations
from ...catalog._tool import Binding, LoadProblem, ToolDefinition
from ._config import UpstreamConfig
from ._pins import PinReview


def guarded_tool(config: UpstreamConfig, review: PinReview | None, tool: ToolDefinition) -> ToolDefinition:
    """``tool`` as opgate will offer it from ``config``'s server."""
    name = config.name
    if not config.trust_annotations:
        # Its hints are not believed: every tool may write, and exports say so too.
        tool = replace(tool, metadata=metadata_from_annotations({}), annotations=None)
    if tool.name in config.reads:
        # The person's word over the server's: many servers give no hints, which MCP reads as "may destroy".
        tool = replace(tool, metadata=metadata_from_annotations({"readOnlyHint": True}))
    meta = tool.metadata
    if config.needs_confirmation(tool.name, destructive=meta.destructive is not False, writes=meta.side_effects != "read_only"):
        tool = replace(tool, metadata=replace(meta, requires_confirmation=True))
    held = review.quarantined.get(tool.name) if review is not None else None
    if held is None:
        return tool
    how = f"`opgate upstreams approve {name} {tool.name}` after reviewing the diff"
    reason = f"quarantined: its definition is {'new since' if held.why == 'new' else 'different from'} the one approved for upstream {name!r}; approve it with {how}"
    return replace(tool, binding=Binding("none", upstream=name, target=tool.name, reason=reason), notes=(*tool.notes, f"Quarantined ({held.why}). Definition diff:\n{held.diff}"))


def review_problems(source: str, name: str, result: PinReview) -> list[LoadProblem]:
    """The pins' findings, as load warnings: tools held back and tools gone."""
    problems = [
        LoadProblem(source, f"tool {held.tool!r} is quarantined ({'new' if held.why == 'new' else 'its definition changed'}); review it with `opgate upstreams`, approve it with `opgate upstreams approve {name} {held.tool}`", tool=held.tool, severity="warning")
        for held in result.quarantined.values()
    ]
    problems += [
        LoadProblem(source, f"tool {tool!r} was approved before and is no longer offered; `opgate upstreams approve {name}` forgets it", tool=tool, severity="warning")
        for tool in result.removed
    ]
    return problems


def unknown_named(source: str, config: UpstreamConfig, tools: list[ToolDefinition]) -> list[LoadProblem]:
    """A ``confirm`` or ``reads`` list naming a tool the server does not offer: said, since a misspelt name would do nothing."""
    offered = {tool.name for tool in tools}
    named = [("confirm", name) for name in ([] if isinstance(config.confirm, str) else config.confirm)]
    named += [("reads", name) for name in config.reads]
    return [
        LoadProblem(source, f"{key} names {name!r}, which upstream {config.name!r} does not offer; check the spelling (its tools: {', '.join(sorted(offered)[:20])})", severity="warning")
        for key, name in named if name not in offered
    ]


def refused_problems(source: str, refused: list[tuple[str, str]]) -> list[LoadProblem]:
    """Tools the server listed that are not MCP tools (a schema that is not an object, a name that is not text): not offered."""
    return [LoadProblem(source, f"tool {name!r} is not offered: its definition is not an MCP tool ({why})", tool=name, severity="warning") for name, why in refused]
