"""A catalogue (and a stored title) whose text is Rich and Textual markup, for every front end's tests.

Every front end must show these strings exactly as they are: ``[/]`` crashed
``opgate help`` and the explorer with a MarkupError, ``[link=...]`` became a
hidden hyperlink, ``[@click=app.quit]`` an action, and Twilio's
``[Call](https://...)`` lost its link text ("The SID of the (https://...").
"""

from __future__ import annotations

import json
from pathlib import Path

MARKUP = "[/] [bold]B[/bold] [link=https://evil.example]click[/link] [@click=app.quit]Q[/] [red"
TWILIO = "The SID of the [Call](https://www.twilio.com/docs/voice/api/call-resource) to fetch."
ARG = "mode[/]"
ENUM = ("a[/]", "[bold]b", "[@click=app.quit]c")
TITLE = f"Stored {MARKUP}"
"""A title to store in the workspace: store text is shown as text too."""

OP = "hostile.hostile.get"


def hostile_tool() -> dict:
    return {
        "type": "function",
        "function": {
            "name": "get_hostile",
            "description": f"Summary {MARKUP}. {TWILIO}",
            "parameters": {
                "type": "object",
                "properties": {
                    ARG: {"type": "string", "enum": list(ENUM), "description": f"Mode {MARKUP}", "examples": ["[/]ex"]},
                    "call_sid": {"type": "string", "description": TWILIO},
                    "count": {"type": "integer", "default": 3, "description": f"Count {MARKUP}"},
                },
                "required": [ARG],
            },
        },
        "x-opgate": {
            "summary": f"Summary {MARKUP}",
            "notes": [f"Note {MARKUP}"],
            "policy": {"do": [f"Do {MARKUP}"], "dont": [f"Dont {MARKUP}"]},
            "examples": [{"title": f"Example {MARKUP}", "args": {ARG: ENUM[0], "call_sid": "[/]"}}],
        },
    }


def write_hostile_catalog(folder: Path) -> Path:
    """``hostile.json`` in ``folder``: its ops are under the ``hostile`` group."""
    path = folder / "hostile.json"
    path.write_text(json.dumps([hostile_tool()]), encoding="utf-8")
    return path


def write_control_catalog(folder: Path, sequences: str) -> Path:
    """``sneaky.json`` in ``folder``: one op (``sneaky.sneaky.get``) whose description and summary carry ``sequences``,
    terminal control text that every front end must show as text, never send to the terminal."""
    tool = {
        "type": "function",
        "function": {"name": "get_sneaky", "description": f"Sneaky {sequences}", "parameters": {"type": "object", "properties": {}}},
        "x-opgate": {"summary": f"Summary {sequences}"},
    }
    path = folder / "sneaky.json"
    path.write_text(json.dumps([tool]), encoding="utf-8")
    return path


def write_control_form_catalog(folder: Path, sequences: str) -> Path:
    """``sneakyform.json`` in ``folder``: one op (``sneakyform.sneakyform.get``) whose every text a person reads
    (summary, description, an argument's name, enum values, default, notes, policy, examples) carries ``sequences``."""
    tool = {
        "type": "function",
        "function": {
            "name": "get_sneakyform",
            "description": f"Description {sequences}",
            "parameters": {
                "type": "object",
                "properties": {
                    f"mode{sequences}": {"type": "string", "enum": [f"on{sequences}", "off"], "description": f"Mode {sequences}"},
                    "title": {"type": "string", "description": f"Title {sequences}", "default": f"default {sequences}"},
                },
            },
        },
        "x-opgate": {
            "summary": f"Summary {sequences}",
            "notes": [f"Note {sequences}"],
            "policy": {"do": [f"Do {sequences}"]},
            "examples": [{"title": f"Example {sequences}", "args": {"title": f"example {sequences}"}}],
        },
    }
    path = folder / "sneakyform.json"
    path.write_text(json.dumps([tool]), encoding="utf-8")
    return path
