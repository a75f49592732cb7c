"""JSON in the people's views: highlighted at a terminal, the same characters without pygments elsewhere."""

from __future__ import annotations

import io
import json
import re

from rich.console import Console

from opgate.views import render_json

VALUE = {"name": "[bold]not markup[/]", "list": [1, 2.5, None, True], "long": "word " * 40}


def _render(**console_options) -> str:
    out = io.StringIO()
    Console(file=out, width=60, **console_options).print(render_json(VALUE))
    return out.getvalue()


def test_plain_output_is_the_json_wrapped_as_the_highlighter_would():
    plain = _render()
    assert "\x1b[" not in plain
    assert "[bold]not markup[/]" in plain  # data, never markup
    highlighted = _render(force_terminal=True, color_system="truecolor")
    assert "\x1b[" in highlighted
    assert re.sub(r"\x1b\[[0-9;]*m", "", highlighted) == plain
