"""REPL completion latency on Twilio's 1,447 ops, at several cursor positions.

Run: python bench/bench_repl.py
Times the whole completer (suggest, then the completions it yields) as the
prompt calls it on each key. The median of every row must stay under 20 ms;
the script exits 1 when one does not.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _table import measure, median, p95, print_table  # noqa: E402
from prompt_toolkit.completion import CompleteEvent  # noqa: E402
from prompt_toolkit.document import Document  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.repl import Namespace, suggest  # noqa: E402
from opgate.repl._completer import ReplCompleter  # noqa: E402

TWILIO = Path(__file__).resolve().parents[2] / "shared" / "data" / "catalogs" / "twilio_openapi_tools.json"
BUDGET_MS = 20.0
REPEAT = 200

TWILIO_LINES = [
    ("command", "ex", ""),
    ("op path, root", "exec ", ""),
    ("op path prefix", "exec twilio.api_v2010.acc", ""),
    ("op path, biggest group (74)", "exec twilio.api_v2010.", ""),
    ("op path, relative", "exec application.cr", "twilio.api_v2010"),
    ("arg name", "exec twilio.api_v2010.application.create ", ""),
    ("arg name prefix", "exec twilio.api_v2010.application.create AccountSid=AC1 Voice", ""),
    ("enum value", "exec twilio.api_v2010.application.create VoiceMethod=", ""),
    ("free value", "exec twilio.api_v2010.application.create VoiceUrl=", ""),
]
STORE_LINES = [
    ("entity id (store), all", "exec onto.task.create project_id=", ""),
    ("entity id (store), by name", "exec onto.task.create project_id=Rel", ""),
]


def _rows(gateway: Gateway, lines: list[tuple[str, str, str]]) -> tuple[list[list[object]], bool]:
    rows, within = [], True
    event = CompleteEvent(completion_requested=True)
    for label, text, cwd in lines:
        namespace = Namespace(gateway, cwd)
        completer = ReplCompleter(namespace)
        document = Document(text, len(text))
        first = measure(lambda: list(ReplCompleter(Namespace(gateway, cwd)).get_completions(document, event)), repeat=1, warmup=0)[0]
        pure = measure(lambda: suggest(document, namespace), repeat=REPEAT)
        times = measure(lambda: list(completer.get_completions(document, event)), repeat=REPEAT)
        count = len(list(completer.get_completions(document, event)))
        within &= median(times) < BUDGET_MS
        rows.append([label, count, f"{first:.2f}", f"{median(pure):.3f}", f"{median(times):.3f}", f"{p95(times):.3f}", "ok" if median(times) < BUDGET_MS else "OVER"])
    return rows, within


def main() -> int:
    headers = ["cursor at", "completions", "first ms", "suggest median ms", "median ms", "p95 ms", f"< {BUDGET_MS:.0f} ms"]
    twilio = Gateway.from_catalogs([TWILIO])
    twilio_rows, twilio_ok = _rows(twilio, TWILIO_LINES)
    print_table(f"Completion latency, Twilio ({len(list(twilio.registry))} ops)", headers, twilio_rows)
    with tempfile.TemporaryDirectory() as folder:
        builtin = Gateway(db_path=Path(folder) / "w.db")
        store_rows, store_ok = _rows(builtin, STORE_LINES)
        builtin.close()
    print_table("Completion latency, ids from the demo workspace (SQLite)", headers, store_rows)
    return 0 if twilio_ok and store_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
