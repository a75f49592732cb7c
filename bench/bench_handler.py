"""What running a tool-folder handler through the gateway adds over calling it in-process.

Run: python bench/bench_handler.py [--repeat 2000]
The same ``execute(context)`` is timed three ways: called directly in this
process; through ``Gateway.exec`` (resolve, validate, authorize, a round trip
to a warm worker process over JSON, the envelope); and for scale, a call of
a built-in store read. Workers are started before timing, so the first-call
start-up (a fresh interpreter, about 0.1-0.3 s) is reported on its own.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _table import measure, median, p95, print_table  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.tool import ToolContext  # noqa: E402

HANDLER = '''
def execute(context):
    words = context.args["text"].split()
    return {"ok": True, "data": {"words": len(words), "first": words[0] if words else None}}
'''
SCHEMA = {
    "toolId": "word_count", "version": "1.0.0", "description": "Count the words of a text.",
    "category": "utility", "sideEffects": "none", "idempotent": True, "requiresConfirmation": False,
    "allowedModes": ["text"], "latencyBudgetMs": 1000,
    "parameters": {"type": "object", "additionalProperties": False, "required": ["text"], "properties": {"text": {"type": "string", "maxLength": 2000}}},
}
ARGS = {"text": "the quick brown fox jumps over the lazy dog"}


def _tool_folder(root: Path) -> Path:
    folder = root / "tools" / "word-count"
    folder.mkdir(parents=True)
    (folder / "schema.json").write_text(json.dumps(SCHEMA))
    (folder / "guide.md").write_text("# word_count\n\nCount the words of a text.\n")
    (folder / "handler.py").write_text(HANDLER)
    return folder


def _direct_call(folder: Path):
    spec = importlib.util.spec_from_file_location("bench_word_count", folder / "handler.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    context = ToolContext(args=ARGS, session={}, capabilities={}, meta={}, dry_run=False, logger=logging.getLogger("bench"))
    return lambda: module.execute(context)


def _row(name: str, times: list[float]) -> list[object]:
    return [name, f"{median(times) * 1000:.1f}", f"{p95(times) * 1000:.1f}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        folder = _tool_folder(root)
        direct = measure(_direct_call(folder), repeat=options.repeat, warmup=100)
        gateway = Gateway.from_catalogs([root / "tools"], db_path=root / "w.db", call_log=False)
        try:
            started = time.perf_counter()
            first = gateway.exec("word_count", ARGS)
            first_ms = (time.perf_counter() - started) * 1000
            assert first["ok"], first
            through = measure(lambda: gateway.exec("word_count", ARGS), repeat=options.repeat, warmup=100)
        finally:
            gateway.close()
        builtin = Gateway(db_path=root / "b.db", call_log=False)
        try:
            store_read = measure(lambda: builtin.exec("onto.project.list", {"limit": 1}), repeat=options.repeat, warmup=100)
        finally:
            builtin.close()
    rows = [
        _row("execute(context) called directly", direct),
        _row("Gateway.exec -> worker process (warm)", through),
        _row("Gateway.exec of a built-in store read, for scale", store_read),
    ]
    rows.append(["added by exec + worker round trip", f"{(median(through) - median(direct)) * 1000:.1f}", f"{(p95(through) - p95(direct)) * 1000:.1f}"])
    rows.append(["ratio exec / direct", f"{median(through) / median(direct):.0f}x", f"{p95(through) / p95(direct):.0f}x"])
    print_table(f"Python handler: {options.repeat} calls each (microseconds)", ["", "median", "p95"], rows)
    print(f"\nfirst call, including the worker's start: {first_ms:.0f} ms")


if __name__ == "__main__":
    main()
