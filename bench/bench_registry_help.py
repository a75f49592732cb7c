"""Registry build time, help latency (cold and cached) and help payload sizes.

Run: python bench/bench_registry_help.py [SIZES...]   (default sizes: 1447 100000)
Reads the real catalogues in ../shared/data/catalogs in place.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _scaled_catalog import scaled_catalog  # noqa: E402
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


def widest_group(gateway: Gateway) -> str:
    nodes = [gateway.help_tree.node(p) for p in gateway.help_tree.paths]
    return max((n for n in nodes if n is not None and n.children), key=lambda n: (len(n.children), n.path)).path


def paged_rows(sizes: list[int]) -> list[list[object]]:
    """The biggest answers help gives at each size: paged, against the whole listing they replace."""
    from opgate.core.help._listing import PAGE_BYTES, group_listing, root_listing

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["OPGATE_CACHE_DIR"] = str(Path(tmp) / "cache")  # a 100,000-op registry does not belong in the user's cache
        for size in sizes:
            gateway = Gateway.from_catalogs([f"twilio={scaled_catalog(size, Path(tmp))}"], call_log=False)
            tree, summaries = gateway.help_tree, gateway.registry.group_summaries
            wide = widest_group(gateway)
            cases = [
                ("root", root_listing(tree.root, summaries, tree.record_of)),
                (wide, group_listing(tree.node(wide), summaries, tree.kind_of, tree.record_of)),
                ("twilio.write", group_listing(tree.node("twilio"), summaries, tree.kind_of, tree.record_of, kind="write")),
            ]
            for path, listing in cases:
                whole = len(json.dumps(listing.whole(), separators=(",", ":")))
                answer = gateway.help("" if path == "root" else path)
                paged = len(json.dumps(answer, separators=(",", ":")))
                pages = "-" if "page" not in answer else f"{answer['page']['shown']} of {answer['page']['groups'] + answer['page']['ops']}"
                rows.append([f"{size:,}", path, whole, paged, pages, f"{paged / PAGE_BYTES:.2f}"])
    return rows


def main() -> None:
    print_table("Registry build (ms)", ["catalogue", "median", "p95"], registry_rows())
    print_table(
        "help latency (us; cold = a new HelpService per call, including building the tree)",
        ["path", "cold median", "cached median", "ratio", "bytes"],
        help_rows(),
    )
    print_table("help payload bytes (compact JSON, built-in catalogue)", ["path", "bytes"], payload_rows())
    sizes = [int(a) for a in sys.argv[1:]] or [1447, 100_000]
    print_table(
        "Largest help answers at scale (bytes): the whole listing against the first page, bound 4,096",
        ["ops", "path", "whole listing", "answer", "entries shown", "answer / bound"],
        paged_rows(sizes),
    )


if __name__ == "__main__":
    main()
