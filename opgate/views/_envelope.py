"""Rendering exec envelopes for people: status line, result, diff and warnings.

What is shown comes from ``_envelope_parts.py`` (which needs no rich); here
each part becomes rich text.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from ._envelope_parts import NO_CHANGES, JsonBlock, Line, Part, diff_parts, envelope_parts, json_block, shown_controls
from ._json_view import JsonView


def rich_part(part: Part) -> RenderableType:
    """A Line as rich Text (a Line piece appended as Text, with its own styles), a JsonBlock as a JsonView."""
    if isinstance(part, JsonBlock):
        return JsonView(part.text)
    text = Text(style=part.style)
    for piece, style in part.pieces:
        if isinstance(piece, Line):
            text.append_text(rich_part(piece))
        else:
            text.append(shown_controls(piece) if type(piece) is str else piece, style=style)
    return text


def render_json(value: Any) -> RenderableType:
    """A JSON value, highlighted; its text is data, never markup."""
    return rich_part(json_block(value))


def render_diff(diff: dict[str, Any], names: dict[str, Any] | None = None) -> RenderableType:
    """The lines of :func:`opgate.core.diff_text.diff_lines`: names next to ids, created rows field by field."""
    lines = diff_parts(diff, names)
    return Group(*map(rich_part, lines)) if lines else rich_part(NO_CHANGES)


def render_envelope(envelope: dict[str, Any], *, help_command: str = "opgate help", enable_writes: str = "--allow-write", confirm_with: str | None = None) -> RenderableType:
    """An envelope for people. ``help_command`` is how this front end asks for help (the REPL says ``help``),
    ``enable_writes`` how it turns writes on, ``confirm_with`` how it confirms without asking (if it can)."""
    return Group(*map(rich_part, envelope_parts(envelope, help_command=help_command, enable_writes=enable_writes, confirm_with=confirm_with)))
