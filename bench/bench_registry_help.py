"""Registry build time, help latency (cold and cached) and help payload sizes.

Run: python bench/bench_registry_help.py
Reads the real catalogues in ../shared/data/catalogs in place.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _table import measure, median, p95, print_table  # noqa: E402

from opgate.core import Gateway, build_registry, load_catalog  # noqa: E402
from opgate.core._builtin import builtin_catalog_loads  # noqa: E402
from opgate.core.help import HelpService  # noqa: E402

TWILIO = Path(__file__).resolve().parents[2] / "shared" / "data" / "catalogs" / "twilio_openapi_tools.json"


def registry_rows() -> list[list[object]]:
    rows = []
    builtin = measure(lambda: build_registry(builtin_catalog_loads()), repeat=20)
    rows.append(["built-in (68 tools)", f"{median(builtin):.1f}", f"{p95(builtin):.1f}"])
    twilio = measure(lambda: build_registry(load_catalog(TWILIO)), repeat=7)
    rows.append(["Twilio (1,447 ops)", f"{median(twilio):.1f}", f"{p95(twilio):.1f}"])
    return rows


def help_rows() -> list[list[object]]:
    registry = build_registry(builtin_catalog_loads())
    rows = []
    for path in ("", "onto", "onto.task", "onto.task.write", "onto.task.create"):
        cold = measure(lambda: HelpService(registry).help(path), repeat=50)
        service = HelpService(registry)
        cached = measure(lambda: service.help(path), repeat=500)
        size = len(json.dumps(service.help(path), separators=(",", ":")))
        rows.append([path or "root", f"{median(cold) * 1000:.0f}", f"{median(cached) * 1000:.0f}", f"{median(cold) / median(cached):.0f}x", size])
    return rows


def payload_rows() -> list[list[object]]:
    gateway = Gateway()
    rows = []
    for path, options in (("", {}), ("onto", {}), ("util", {}), ("onto.task", {}), ("onto.task.read", {}), ("onto.task.create", {}), ("onto.task.create", {"include_examples": False}), ("onto.task.create", {"format": "full"})):
        payload = gateway.help(path, **options)
        label = (path or "root") + ("".join(f" {k}={v}" for k, v in options.items()))
        rows.append([label, len(json.dumps(payload, separators=(",", ":")))])
    return rows


def main() -> None:
    print_table("Registry build (ms)", ["catalogue", "median", "p95"], registry_rows())
    print_table(
        "help latency (us; cold = a new HelpService per call, including building the tree)",
        ["path", "cold median", "cached median", "ratio", "bytes"],
        help_rows(),
    )
    print_table("help payload bytes (compact JSON, built-in catalogue)", ["path", "bytes"], payload_rows())


if __name__ == "__main__":
    main()
