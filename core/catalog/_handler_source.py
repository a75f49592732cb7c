"""Checking a tool folder's ``handler.py`` without running it.

The file is parsed, never imported: building or loading a catalogue must not
run the author's code (it runs later, in a handler worker, when its op is
called). Parsing finds what stops every call: a syntax error (with its
line), or no top-level ``execute`` that takes the context.
"""

from __future__ import annotations

import ast
from pathlib import Path

from ._tool import LoadProblem


def _execute_def(tree: ast.Module) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    found = None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == "execute":
            found = node  # the last definition wins, as it would at import
    return found


def _takes_context(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    arguments = function.args
    positional = len(arguments.posonlyargs) + len(arguments.args)
    required = positional - len(arguments.defaults)
    return (positional >= 1 or arguments.vararg is not None) and required <= 1 and not any(
        default is None for default in arguments.kw_defaults
    )


def check_handler_source(path: Path, *, where: str, tool: str) -> list[LoadProblem]:
    """Problems that would stop every call of this handler, found by parsing it."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [LoadProblem(where, f"cannot read it: {exc}", tool=tool)]
    try:
        tree = ast.parse(text, filename=str(path))
    except SyntaxError as exc:
        column = f", column {exc.offset}" if exc.offset else ""
        return [LoadProblem(where, f"syntax error at line {exc.lineno}{column}: {exc.msg}", tool=tool)]
    function = _execute_def(tree)
    if function is None:
        return [LoadProblem(where, "no top-level execute: add `def execute(context):` (or `async def`)", tool=tool, field="execute")]
    if not _takes_context(function):
        return [LoadProblem(where, "must take exactly one required argument, the context: `def execute(context):`", tool=tool, field="execute")]
    return []
