"""Writing real tool folders for the handler tests, and running the real CLI on them."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def schema(tool_id: str, **overrides: Any) -> dict[str, Any]:
    """A valid schema.json: a utility without side effects unless ``overrides`` say otherwise."""
    data: dict[str, Any] = {
        "toolId": tool_id,
        "version": "1.2.3",
        "description": f"The {tool_id} test tool.",
        "category": "utility",
        "sideEffects": "none",
        "idempotent": True,
        "requiresConfirmation": False,
        "allowedModes": ["text"],
        "latencyBudgetMs": 10_000,
        "parameters": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"value": {"type": "string"}, "marker": {"type": "string"}, "seconds": {"type": "number"}},
        },
    }
    data.update(overrides)
    return data


WRITER = {"category": "action", "sideEffects": "writes", "idempotent": False}


def write_tool(root: Path, name: str, handler: str, *, examples: list[dict] | None = None, **schema_overrides: Any) -> Path:
    """``root/name/`` with schema.json, guide.md and ``handler`` (dedented) as handler.py."""
    folder = root / name
    folder.mkdir(parents=True)
    tool_id = name.replace("-", "_")
    (folder / "schema.json").write_text(json.dumps(schema(tool_id, **schema_overrides), indent=2))
    blocks = "".join(f"\n```json\n{json.dumps(args)}\n```\n" for args in (examples or []))
    (folder / "guide.md").write_text(f"# {tool_id}\n\nThe {tool_id} test tool, for the handler tests.\n\n## Examples\n{blocks}")
    (folder / "handler.py").write_text(textwrap.dedent(handler).lstrip())
    return folder


def opgate(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """The real command line, in its own process."""
    return subprocess.run([sys.executable, "-m", "opgate", *args], capture_output=True, text=True, timeout=timeout, cwd=cwd)


def alive(pid: int) -> bool:
    """Whether a process exists (a zombie counts: a reaped process does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return bool(stat.read())
    except FileNotFoundError:
        return False
