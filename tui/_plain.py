"""Text that did not come from this code, shown exactly as it is.

Textual and Rich read a ``str`` as markup. A catalogue description holding
``[/]`` crashed the explorer, ``[link=https://...]`` became a hidden
hyperlink, ``[@click=app.quit]`` an action, and Twilio's ``[Call](https://...)``
lost its link text. Catalogue text (names, summaries, descriptions, enum
values, examples), stored values and anything a caller sent go through
:func:`plain` (for Textual) or :func:`rich.text.Text` (for Rich renderables).
"""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.markup import escape

__all__ = ["escape", "plain"]


def plain(value: Any) -> Content:
    """``value`` as text, never markup."""
    return Content(value if isinstance(value, str) else str(value))
