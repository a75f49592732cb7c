"""Answering an upstream's questions (MCP elicitation) at the terminal.

Only when standard input and standard error are terminals: questions go to
standard error (standard output carries the envelope), answers come from
standard input. Anywhere else nobody can answer, and the question is
declined. The upstream's text is shown as plain text, never as markup.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from opgate.core.exec import Question

_TRUE = ("y", "yes", "true", "1")
_FALSE = ("n", "no", "false", "0")


def terminal_asker(stdin: TextIO | None = None, stderr: TextIO | None = None) -> Callable[[Question], dict[str, Any] | None] | None:
    """An asker for ``opgate exec`` and ``batch``, or ``None`` when this is not an interactive terminal."""
    stdin, stderr = stdin or sys.stdin, stderr or sys.stderr
    if not (stdin.isatty() and stderr.isatty()):
        return None
    return lambda question: ask(question, stdin, stderr)


def ask(question: Question, stdin: TextIO, stderr: TextIO) -> dict[str, Any] | None:
    """Each field of the question's form in turn; an empty answer to a required field with no default, or end of input, declines."""
    stderr.write(f"\n{question.op} (upstream {question.upstream}) asks:\n  {question.message}\n")
    stderr.write("  (press Enter on a required field to decline)\n")
    schema = question.schema or {}
    required = set(schema.get("required") or [])
    answers: dict[str, Any] = {}
    for name, field in (schema.get("properties") or {}).items():
        while True:
            stderr.write(_prompt(name, field))
            stderr.flush()
            line = stdin.readline()
            if not line:
                return None
            text = line.strip()
            if not text:
                if "default" in field:
                    answers[name] = field["default"]
                elif name in required:
                    return None
                break
            value, problem = _typed(text, field)
            if problem is None:
                answers[name] = value
                break
            stderr.write(f"  {problem}\n")
    return answers


def _prompt(name: str, field: dict[str, Any]) -> str:
    label = field.get("title") or name
    kind = "yes/no" if field.get("type") == "boolean" else " | ".join(map(str, field["enum"])) if field.get("enum") else field.get("type", "text")
    default = f" [{field['default']}]" if "default" in field else ""
    about = f" ({field['description']})" if field.get("description") else ""
    return f"  {label}{about} <{kind}>{default}: "


def _typed(text: str, field: dict[str, Any]) -> tuple[Any, str | None]:
    kind = field.get("type")
    if field.get("enum") and text not in map(str, field["enum"]):
        return None, f"choose one of: {', '.join(map(str, field['enum']))}"
    if kind == "boolean":
        if text.lower() in _TRUE:
            return True, None
        if text.lower() in _FALSE:
            return False, None
        return None, "answer yes or no"
    if kind in ("integer", "number"):
        try:
            return (int(text) if kind == "integer" else float(text)), None
        except ValueError:
            return None, f"expected {'a whole number' if kind == 'integer' else 'a number'}"
    return text, None
