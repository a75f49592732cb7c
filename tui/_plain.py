"""Text that did not come from this code, shown exactly as it is.

Textual and Rich read a ``str`` as markup. A catalogue description holding
``[/]`` crashed the explorer, ``[link=https://...]`` became a hidden
hyperlink, ``[@click=app.quit]`` an action, and Twilio's ``[Call](https://...)``
lost its link text. Catalogue text (names, summaries, descriptions, enum
values, examples), stored values and anything a caller sent go through
:func:`plain` (for Textual) or :func:`data_text` (for Rich renderables).

Both also write each control character as its escape (``\\u202e``, ``\\x1b``),
as the REPL does: a bidirectional control is data a QA engineer must be able
to see, and the terminal guard (``_terminal_guard.py``), which can only drop
what reaches it, would otherwise hide it without a mark.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.content import Content
from textual.markup import escape

from opgate.views._envelope_parts import json_text, shown_controls

__all__ = ["data_text", "escape", "json_text", "plain", "shown"]


def shown(value: Any) -> str:
    """``value`` as a string whose control characters are written as escapes."""
    return shown_controls(value if isinstance(value, str) else str(value))


def plain(value: Any) -> Content:
    """``value`` as text, never markup."""
    return Content(shown(value))


def data_text(value: Any, style: str = "") -> Text:
    """``value`` as Rich text, never markup."""
    return Text(shown(value), style=style)
