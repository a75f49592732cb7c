"""Bytes and estimated tokens of each exposure mode, side by side, per catalogue.

Run: python bench/bench_modes.py
The hybrid lane is chosen for a fixed, ordinary user message per catalogue.
Deferred mode shows its whole payload and, separately, what a model sees up
front (deferred schemas are loaded only when the provider's search finds them).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _table import print_table  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.core.modes import ToolRouter, export, stats  # noqa: E402

CATALOGS = Path(__file__).resolve().parents[2] / "shared" / "data" / "catalogs"
SOURCES = {
    "built-in": (None, "move the API Spec doc under the Engineering folder"),
    "github (117)": (CATALOGS / "github_mcp_tools_list.json", "list the open pull requests of my repository"),
    "loom (62)": (CATALOGS / "loom_tools.json", "search academic papers about retrieval"),
    "twilio (1,447)": (CATALOGS / "twilio_openapi_tools.json", "send an sms to a phone number"),
}
GATEWAY_BUDGET = 2118  # what a production gateway's own three tools cost


def rows_for(name: str, gateway: Gateway, turn: str) -> list[list[object]]:
    full = stats(export(gateway, "openai", "full"))
    rows = []
    for mode, provider in (("gateway", "openai"), ("gateway", "anthropic"), ("full", "openai"), ("hybrid", "openai"), ("deferred", "anthropic"), ("deferred", "openai-responses")):
        figures = stats(export(gateway, provider, mode, router=ToolRouter(gateway), turn=turn))
        share = figures["upfront_bytes"] / full["bytes"] * 100
        rows.append([name, mode, provider, figures["tools"], f"{figures['bytes']:,}", f"{figures['estimated_tokens']:,}", f"{figures['upfront_bytes']:,}", f"{share:.1f}%"])
    return rows


def main() -> None:
    rows: list[list[object]] = []
    for name, (path, turn) in SOURCES.items():
        gateway = Gateway() if path is None else Gateway.from_catalogs([path])
        rows += rows_for(name, gateway, turn)
    print_table(
        "Exposure modes (compact JSON; tokens estimated at 4 bytes each; 'share' = up-front bytes / full mode)",
        ["catalogue", "mode", "provider", "tools", "bytes", "est. tokens", "upfront bytes", "share"],
        rows,
    )
    builtin = stats(export(Gateway(), "openai", "gateway"))
    verdict = "within" if builtin["bytes"] < GATEWAY_BUDGET else "OVER"
    print(f"\nbuilt-in gateway mode: {builtin['bytes']:,} bytes, {verdict} the {GATEWAY_BUDGET:,}-byte budget")


if __name__ == "__main__":
    main()
