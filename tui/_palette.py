"""Rich styles taken from the app's theme, so Rich renderables read well in light and dark themes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text

from opgate.views._envelope_parts import json_text


@dataclass(frozen=True)
class Palette:
    """Foreground colours for text drawn with Rich (tables, diffs, JSON)."""

    primary: str = "blue"
    success: str = "green"
    warning: str = "yellow"
    error: str = "red"
    accent: str = "magenta"
    muted: str = "dim"
    dark: bool = True

    @classmethod
    def of(cls, app: Any) -> Palette:
        """The palette of ``app``'s current theme (the defaults when it has none yet)."""
        try:
            variables = app.theme_variables
            dark = bool(app.current_theme.dark)
        except Exception:  # not mounted yet: any readable colours will do
            return cls()
        pick = lambda name, fallback: variables.get(name) or fallback  # noqa: E731
        return cls(
            primary=pick("text-primary", "blue"), success=pick("text-success", "green"),
            warning=pick("text-warning", "yellow"), error=pick("text-error", "red"),
            accent=pick("text-accent", "magenta"), dark=dark,
        )


def json_syntax(value: Any, palette: Palette, *, indent: int | None = 2) -> Text:
    """``value`` as highlighted JSON text (no background of its own, so it sits on the widget's)."""
    from rich.syntax import Syntax  # loads Pygments: not before the first frame, which shows no JSON

    text = json_text(value, indent=indent)  # a control character in a value shows as its \u escape
    theme = "ansi_dark" if palette.dark else "ansi_light"
    highlighted = Syntax(text, "json", theme=theme).highlight(text)
    highlighted.rstrip()
    return highlighted
