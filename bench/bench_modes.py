"""Bytes and estimated tokens of each exposure mode, side by side, per catalogue.

Run: python bench/bench_modes.py
The hybrid lane is chosen for a fixed, ordinary user message per catalogue.
Deferred mode shows its whole payload and, separately, what a model sees up
front before any tool search (as each provider documents it).

The GitHub, Loom and Twilio catalogues are files with nothing behind them,
so their ops are browse-only and never offered to a model. To measure what
they would cost once served, their typed tools are built from every record
(the hybrid lane from the search hits for the turn, under the lane's caps)
and laid out by ``format_tools``, the same code ``export`` ends in.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _table import print_table  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.core.modes import (  # noqa: E402
    GENERIC_TOOLS,
    TYPED_LANE_BYTES,
    TYPED_LANE_CAP,
    ToolRouter,
    build_export,
    format_tools,
    gateway_tools,
    stats,
    typed_tool,
)

CATALOGS = Path(__file__).resolve().parents[2] / "shared" / "data" / "catalogs"
SOURCES = {
    "built-in": (None, "move the API Spec doc under the Engineering folder"),
    "github (117)": (CATALOGS / "github_mcp_tools_list.json", "list the open pull requests of my repository"),
    "loom (62)": (CATALOGS / "loom_tools.json", "search academic papers about retrieval"),
    "twilio (1,447)": (CATALOGS / "twilio_openapi_tools.json", "send an sms to a phone number"),
}
RUNS = (("gateway", "openai"), ("gateway", "anthropic"), ("full", "openai"), ("hybrid", "openai"), ("deferred", "anthropic"), ("deferred", "openai-responses"))
GATEWAY_BUDGET = 2118  # what a production gateway's own three tools cost


def _lane_as_if_runnable(gateway: Gateway, turn: str):
    lane, used = [], 0
    for hit in gateway.search(turn, limit=TYPED_LANE_CAP).get("results", []):
        spec = typed_tool(gateway.registry.get(hit["op"]))
        size = len(str(spec.parameters)) + len(spec.description)
        if len(lane) < TYPED_LANE_CAP and used + size <= TYPED_LANE_BYTES:
            lane.append(spec)
            used += size
    return [*lane, *GENERIC_TOOLS]


def _as_if_runnable(gateway: Gateway, mode: str, provider: str, turn: str, strict: bool):
    if mode == "gateway":
        specs = gateway_tools(gateway)
    elif mode == "hybrid":
        specs = _lane_as_if_runnable(gateway, turn)
    else:
        specs = [typed_tool(r, defer_loading=mode == "deferred") for r in gateway.registry]
    return format_tools(specs, provider, mode, strict=strict, group_summaries=gateway.registry.group_summaries)


def rows_for(name: str, gateway: Gateway, turn: str, *, served: bool) -> list[list[object]]:
    def built(mode: str, provider: str, strict: bool = False):
        if served:
            return build_export(gateway, provider, mode, router=ToolRouter(gateway), turn=turn, strict=strict)
        return _as_if_runnable(gateway, mode, provider, turn, strict)

    full = stats(built("full", "openai").tools)
    strict = built("full", "openai", strict=True)
    rows = []
    for mode, provider in RUNS:
        figures = stats(built(mode, provider).tools)
        share = figures["upfront_bytes"] / full["bytes"] * 100
        rows.append([
            name, mode, provider, figures["tools"], f"{figures['bytes']:,}", f"{figures['estimated_tokens']:,}",
            f"{figures['upfront_bytes']:,}", f"{share:.1f}%", figures["namespaces"] or "",
        ])
    rows.append([name, "full --strict", "openai", f"{strict.strict_tools}/{strict.strict_tools + len(strict.not_strict)} strict", "", "", "", "", ""])
    return rows


def main() -> None:
    rows: list[list[object]] = []
    for name, (path, turn) in SOURCES.items():
        gateway = Gateway() if path is None else Gateway.from_catalogs([path], call_log=False)
        rows += rows_for(name, gateway, turn, served=path is None)
    print_table(
        "Exposure modes (compact JSON; tokens estimated at 4 bytes each; 'share' = up-front bytes / full mode)",
        ["catalogue", "mode", "provider", "tools", "bytes", "est. tokens", "upfront bytes", "share", "namespaces"],
        rows,
    )
    builtin = stats(build_export(Gateway(), "openai", "gateway").tools)
    verdict = "within" if builtin["bytes"] < GATEWAY_BUDGET else "OVER"
    print(f"\nbuilt-in gateway mode: {builtin['bytes']:,} bytes, {verdict} the {GATEWAY_BUDGET:,}-byte budget (the same for any catalogue)")


if __name__ == "__main__":
    main()
