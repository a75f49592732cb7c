"""What is wrong with a batch step's shape, as field errors with the step's path.

A step is ``{"tool": "help" | "exec", "args": {...}}``. ``{"exec": {...}}``
or ``{"tool": "exec", "op": ...}`` is a step written another way; the answer
names the step, the key and what belongs there, in the field-error shape
the MCP tool's schema check gives (``args.steps[0].tool``).
"""

from __future__ import annotations

from typing import Any

from ..echo_text import quoted
from ._plain_errors import _kind_of, _shown

STEP_TOOLS = ("help", "exec")
STEP_KEYS = ("tool", "args")
SHAPE = '{"tool": "help" | "exec", "args": {...}}'
MAX_STEP_ROWS = 20
"""Field errors listed for one step. A step of 100,000 unknown keys made a row each, and the envelope's bound then
spent 19 s of CPU cutting them back; past this many, one last row counts the keys not listed."""


def _row(index: int, key: str | None, code: str, message: str, **extra: Any) -> dict[str, Any]:
    field = f"args.steps[{index}]" + (f".{key}" if key else "")
    path = f"/steps/{index}" + (f"/{key}" if key else "")
    return {"field": field, "path": path, "code": code, "message": message, **extra}


def step_shape_errors(index: int, step: Any) -> list[dict[str, Any]]:
    """The field errors of ``step`` (step ``index`` of its batch); empty when its shape is right."""
    if not isinstance(step, dict):
        return [_row(index, None, "invalid_type", f"{_shown(step)} is {_kind_of(step)}; expected an object", expected="object")]
    rows = []
    if "tool" not in step:
        rows.append(_row(index, "tool", "missing_required", 'missing required key "tool" ("help" or "exec")', expected="one of help, exec"))
    elif step["tool"] not in STEP_TOOLS or not isinstance(step["tool"], str):
        rows.append(_row(index, "tool", "not_in_enum", f'{_shown(step["tool"])} is not one of "help", "exec"', expected="one of help, exec", allowed=list(STEP_TOOLS)))
    if "args" in step and not isinstance(step["args"], dict):
        rows.append(_row(index, "args", "invalid_type", f"{_shown(step['args'])} is {_kind_of(step['args'])}; expected an object", expected="object"))
    unknown = [key for key in step if key not in STEP_KEYS]
    listed = MAX_STEP_ROWS - 1 - len(rows) if len(rows) + len(unknown) > MAX_STEP_ROWS else len(unknown)
    for key in unknown[:listed]:
        hint = ""
        if key in STEP_TOOLS:
            hint = f'; the tool is a value: {{"tool": "{key}", "args": {{...}}}}'
        elif key in ("op", "path", "format", "dry_run", "idempotency_key", "state_digest", "id_seed"):
            hint = "; the tool's arguments go inside args"
        rows.append(_row(index, _shown(key).strip('"'), "unknown_argument", f"unknown key {_shown(key)} in a step{hint}", allowed=list(STEP_KEYS)))
    if listed < len(unknown):
        left = len(unknown) - listed
        rows.append(_row(index, None, "unknown_argument", f"{left:,} more unknown keys in the step, not listed", allowed=list(STEP_KEYS), more=left))
    return rows


_FLAGS = {"help": ("include_examples", "include_schemas"), "exec": ("dry_run",)}


def step_flag_errors(index: int, tool: str, args: dict[str, Any]) -> list[dict[str, Any]]:
    """The field errors of a step's flags that are not true or false: the exec and help tools refuse them, so a step must too
    (``"dry_run": "false"`` was read as a dry run, ``0`` as a real one)."""
    rows = []
    for name in _FLAGS.get(tool, ()):
        value = args.get(name)
        if name in args and not isinstance(value, bool):
            message = f"{_shown(value)} is {_kind_of(value)}; expected true or false"
            rows.append({"field": f"args.steps[{index}].args.{name}", "path": f"/steps/{index}/args/{name}", "code": "invalid_type", "message": message, "expected": "boolean"})
    return rows


def step_shape_message(index: int, rows: list[dict[str, Any]]) -> str:
    """One line for the step's field errors: the first, and how many more."""
    count = len(rows) + rows[-1].get("more", 1) - 1
    more = f" (and {count - 1} more)" if count > 1 else ""
    return f"step {index}: {rows[0]['message']}{more}; a step is {SHAPE}"


BATCH_FILE_KEYS = ("steps", "on_error")


class BatchFileError(ValueError):
    """A batch document (a file, standard input) that is not a list of steps or ``{steps, on_error}``."""


def batch_document(data: Any) -> tuple[Any, Any]:
    """The steps and ``on_error`` of a batch document: a list of steps, or ``{"steps": [...], "on_error": ...}``.

    Any other key is refused, as the batch tool refuses it: a misspelt
    ``on_eror`` would otherwise run the batch with ``on_error`` left at stop.
    """
    if not isinstance(data, dict):
        return data, None
    unknown = [key for key in data if key not in BATCH_FILE_KEYS]
    if unknown:
        import difflib

        hint = difflib.get_close_matches(str(unknown[0]), BATCH_FILE_KEYS, n=1)
        said = ", ".join(quoted(k) for k in unknown[:5]) + (f" and {len(unknown) - 5} more" if len(unknown) > 5 else "")
        raise BatchFileError(f"a batch holds steps and on_error, not {said}" + (f"; did you mean {hint[0]!r}?" if hint else ""))
    return data.get("steps"), data.get("on_error")

