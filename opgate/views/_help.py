"""Rendering help payloads for people, with rich.

Every text here comes from a catalogue (names, summaries, descriptions, enum
values) and is shown as plain text: a table cell given a ``str`` would read
``[/]`` or ``[link=...]`` as Rich markup, so cells are :class:`Text`.
"""

from __future__ import annotations

import json
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ._json_view import JsonView

KIND_STYLE = {"read": "green", "write": "yellow"}


def _kind(kind: str, badges: list[str] | None = None) -> Text:
    text = Text(kind, style=KIND_STYLE.get(kind, ""))
    for badge in badges or []:
        if badge not in ("read", "write"):
            text.append(f" {badge}", style="red" if badge == "destructive" else "magenta")
    return text


def _plain(value: Any, style: str = "") -> Text:
    """Catalogue text as it is: never markup."""
    return Text(value if isinstance(value, str) else str(value), style=style)


def _json(value: Any) -> JsonView:
    return JsonView(json.dumps(value, indent=2, ensure_ascii=False))


def _error(payload: dict[str, Any]) -> RenderableType:
    error = payload["error"]
    parts: list[RenderableType] = [_plain(f"{error['code']}: {error['message']}", "bold red")]
    if error.get("hints"):
        parts.append(Text("closest: " + ", ".join(error["hints"]), style="yellow"))
    if error.get("next_action"):
        parts.append(Text(f"next: {error['next_action']}", style="dim"))
    return Group(*parts)


def _root(payload: dict[str, Any]) -> RenderableType:
    table = Table(title=f"opgate: {payload['ops']} ops", title_justify="left", show_edge=False)
    table.add_column("group", style="bold cyan")
    table.add_column("ops", justify="right")
    table.add_column("summary")
    for group in payload["groups"]:
        table.add_row(_plain(group["name"]), str(group["ops"]), _plain(group.get("summary", "")))
    return Group(table, *_page_note(payload), Text(payload.get("next", ""), style="dim"))


def _page_note(payload: dict[str, Any]) -> list[RenderableType]:
    """For a paged answer: what this page shows, and the command for the next one."""
    page = payload.get("page")
    if not isinstance(page, dict):
        return []
    first = page.get("offset", 0) + 1
    note = f"entries {first}-{first + page.get('shown', 0) - 1} of {page.get('groups', 0) + page.get('ops', 0)}, largest groups first"
    if page.get("next_cursor"):
        note += f"; next page: --cursor {page['next_cursor']}"
    return [Text(note, style="dim")]


def _group(payload: dict[str, Any]) -> RenderableType:
    parts: list[RenderableType] = [Text(f"{payload['path']}  ({payload['ops']} ops)", style="bold cyan")]
    if payload.get("summary"):
        parts.append(Text(payload["summary"]))
    if payload.get("groups"):
        table = Table(show_edge=False)
        for column in ("group", "ops", "read", "write"):
            table.add_column(column, justify="left" if column == "group" else "right")
        for group in payload["groups"]:
            table.add_row(_plain(f"{payload['path']}.{group['name']}"), str(group["ops"]), str(group["read"]), str(group["write"]))
        parts.append(table)
    if payload.get("list"):
        table = Table(show_edge=False)
        table.add_column("op", style="cyan", no_wrap=True)
        table.add_column("kind")
        table.add_column("summary")
        for line in payload["list"]:
            table.add_row(_plain(line["op"]), _kind(line["kind"], line.get("badges")), _plain(line["summary"]))
        parts.append(table)
    if payload.get("op"):
        parts.append(_op(payload["op"]))
    parts += _page_note(payload)
    if payload.get("next"):
        parts.append(Text(payload["next"], style="dim"))
    return Group(*parts)


def _args_table(args: list[dict[str, Any]]) -> Table:
    table = Table(show_edge=False)
    for column in ("arg", "type", "req", "default", "description"):
        table.add_column(column)
    for arg in args:
        description = arg.get("description", "")
        if arg.get("enum"):
            description = f"{description} [{', '.join(map(str, arg['enum']))}]".strip()
        default = json.dumps(arg["default"]) if "default" in arg else ""
        table.add_row(_plain(arg["name"], "bold" if arg["required"] else ""), _plain(arg["type"]), "yes" if arg["required"] else "", _plain(default), _plain(description))
    return table


def _op(payload: dict[str, Any]) -> RenderableType:
    title = Text(payload["op"], style="bold cyan")
    title.append("  ")
    title.append_text(_kind(payload["kind"], payload.get("badges")))
    title.append(f"  tool: {payload['tool_name']}", style="dim")
    parts: list[RenderableType] = [title, Text(payload["summary"])]
    if payload.get("description"):
        parts.append(Text(payload["description"], style="italic"))
    parts += [Text("usage: ", style="bold").append(payload["usage"], style="")]
    if payload["args"]:
        parts.append(_args_table(payload["args"]))
    for note in payload.get("notes", []):
        parts.append(Text(f"• {note}", style="dim"))
    policy = payload.get("policy")
    if policy:
        for key, label, style in (("do", "do", "green"), ("dont", "don't", "red"), ("edge_cases", "edge cases", "yellow")):
            for line in policy.get(key, []):
                parts.append(Text(f"{label}: ", style=f"bold {style}").append(line, style=""))
    for example in payload.get("examples", []):
        parts.append(Text(f"example: {example.get('title', '')}", style="bold"))
        parts.append(_json(example.get("args", {})))
    if payload.get("schema"):
        parts += [Text("schema", style="bold"), _json(payload["schema"])]
    return Group(*parts)


def render_help(payload: dict[str, Any]) -> RenderableType:
    if not payload.get("ok"):
        return _error(payload)
    kind = payload.get("type")
    if kind == "root":
        return _root(payload)
    if kind == "op":
        return _op(payload)
    return _group(payload)
