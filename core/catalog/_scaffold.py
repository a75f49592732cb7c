'''A new tool folder that builds and runs as it is: ``opgate new tool NAME [DIR]``.'''

from __future__ import annotations

import json
import re
from pathlib import Path

_NAME = re.compile(r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$")

_GUIDE = """# {tool_id}

Echo a piece of text back with its length; replace this line with what the tool does (it becomes the summary).

## Parameters
- text (required): the text to echo, up to 200 characters

## Examples

**Echo a word:**
```json
{{"text": "hello"}}
```
Answers with the text and its length.

## Watch Out
- Describe the mistakes callers make with this tool here.
"""

_HANDLER = '''"""{tool_id}: what execute(context) does, in one line."""

from opgate.tool import ErrorType, ToolError


def execute(context):
    """Answer {{"ok": True, "data": ...}}; report expected failures with ToolError."""
    text = context.args["text"]
    if not text.strip():
        raise ToolError(ErrorType.VALIDATION, "text is blank; send some words", field="text")
    context.logger.info("echoing %d characters", len(text))
    return {{"ok": True, "data": {{"text": text, "length": len(text)}}}}
'''


class ScaffoldError(ValueError):
    """The name is not a tool name, or its folder already exists."""


def _schema(tool_id: str) -> dict:
    return {
        "toolId": tool_id,
        "version": "0.1.0",
        "description": "Echo a piece of text back with its length. Replace this with what the tool does.",
        "category": "utility",
        "sideEffects": "none",
        "idempotent": True,
        "requiresConfirmation": False,
        "supportsDryRun": False,
        "allowedModes": ["text", "voice"],
        "latencyBudgetMs": 1000,
        "parameters": {
            "type": "object",
            "additionalProperties": False,
            "required": ["text"],
            "properties": {"text": {"type": "string", "description": "The text to echo", "maxLength": 200}},
        },
    }


def scaffold_tool_folder(name: str, parent: Path) -> Path:
    """Write ``parent/name/`` with schema.json, guide.md and handler.py; return the folder."""
    if not _NAME.match(name):
        raise ScaffoldError(f"{name!r} is not a tool name: use lowercase letters and digits, words joined by '-' or '_' (kb-search)")
    folder = parent / name
    if folder.exists():
        raise ScaffoldError(f"{folder} already exists; choose another name or remove it")
    tool_id = name.replace("-", "_")
    folder.mkdir(parents=True)
    (folder / "schema.json").write_text(json.dumps(_schema(tool_id), indent=2) + "\n", encoding="utf-8")
    (folder / "guide.md").write_text(_GUIDE.format(tool_id=tool_id), encoding="utf-8")
    (folder / "handler.py").write_text(_HANDLER.format(tool_id=tool_id), encoding="utf-8")
    return folder
