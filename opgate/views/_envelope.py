"""Rendering exec envelopes for people: status line, result, diff and warnings.

What is shown comes from ``_envelope_parts.py`` (which needs no rich); here
each part becomes rich text.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from ._envelope_parts import NO_CHANGES, JsonBlock, Part, diff_parts, envelope_parts, json_block
from ._json_view import JsonView


def _rich(part: Part) -> RenderableType:
    if isinstance(part, JsonBlock):
        return JsonView(part.text)
    text = Text(style=part.style)
    for piece, style in part.pieces:
        text.append(piece, style=style)
    return text


def render_json(value: Any) -> RenderableType:
    """A JSON value, highlighted; its text is data, never markup."""
    return _rich(json_block(value))


def render_diff(diff: dict[str, Any], names: dict[str, Any] | None = None) -> RenderableType:
    """The lines of :func:`opgate.core.diff_text.diff_lines`: names next to ids, created rows field by field."""
    lines = diff_parts(diff, names)
    return Group(*map(_rich, lines)) if lines else _rich(NO_CHANGES)


def render_envelope(envelope: dict[str, Any], *, help_command: str = "opgate help") -> RenderableType:
    """An envelope for people. ``help_command`` is how this front end asks for help (the REPL says ``help``)."""
    return Group(*map(_rich, envelope_parts(envelope, help_command=help_command)))
