"""``opgate build --run-examples``: every example of every op, through a real gateway over the built registry."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from opgate.core import Gateway


@dataclass(frozen=True)
class ExampleRun:
    op: str
    title: str
    envelope: dict[str, Any]

    @property
    def ok(self) -> bool:
        return bool(self.envelope.get("ok"))

    @property
    def problem(self) -> str:
        error = self.envelope.get("error") or {}
        return f"{error.get('code')}: {error.get('message')}"


def run_examples(registry_file: Path) -> list[ExampleRun]:
    """Run each example once; writes run as dry-runs, so nothing is changed.

    The gateway reads the registry file just written (so the file itself is
    proved runnable) and works on a throwaway workspace.
    """
    runs: list[ExampleRun] = []
    with tempfile.TemporaryDirectory(prefix="opgate-examples-") as scratch:
        gateway = Gateway.from_catalogs([registry_file], db_path=Path(scratch) / "examples.db", call_log=False)
        try:
            for record in gateway.registry:
                for number, example in enumerate(record.examples, start=1):
                    title = str(example.get("title") or f"Example {number}")
                    envelope = gateway.exec(record.op, example.get("args") or {}, dry_run=record.kind == "write")
                    runs.append(ExampleRun(record.op, title, envelope))
        finally:
            gateway.close()
    return runs
