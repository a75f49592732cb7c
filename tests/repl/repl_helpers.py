"""The demo ids the REPL tests use, and the REPL run as a script into a string.

Apart from conftest.py because a test module cannot import from ``conftest``
reliably: when several test folders are named on one pytest command line, the
name ``conftest`` means whichever folder's conftest was loaded last.
"""

from __future__ import annotations

import io

from rich.console import Console

from opgate.core import Gateway
from opgate.repl import run_repl

RELAY = "10000000-0000-4000-8000-000000000001"
TIDEWATER = "10000000-0000-4000-8000-000000000002"
SPONSORS_TASK = "20000000-0000-4000-8000-000000000021"


def run_script_text(gateway: Gateway, text: str, width: int = 140) -> tuple[int, str]:
    """Run ``text`` as ``opgate repl < script`` would (on a terminal ``width`` wide); the exit status and what it printed."""
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None)
    status = run_repl(gateway, console=console, stdin=io.StringIO(text), interactive=False)
    return status, out.getvalue()


def tasks_of(gateway: Gateway, project_id: str) -> list[dict]:
    with gateway.store.read() as tx:
        return list(tx.list("task", {"project_id": project_id}, limit=200).rows)
