"""What a help payload shows people, as lines, JSON blocks and tables, without rich.

``render_help`` (``_help.py``) turns these parts into rich renderables; a
command line writing into a pipe prints them with :func:`plain_text`, tables
laid out as rich lays them out there (``_plain_table.py``). Every text comes
from a catalogue and is plain text, never markup.
"""

from __future__ import annotations

import json
from typing import Any

from opgate.core._record import record

from ._envelope_parts import JsonBlock, Line

KIND_STYLE = {"read": "green", "write": "yellow"}


@record(frozen=True)
class Column:
    header: str
    justify: str = "left"
    style: str = ""
    no_wrap: bool = False


@record(frozen=True)
class TableBlock:
    """A ``rich.table.Table`` without its outer edge; a cell is a Line, or a str rich reads as markup (only numbers here)."""

    columns: tuple[Column, ...]
    rows: tuple[tuple[Line | str, ...], ...]
    title: str | None = None

    def plain_lines(self, width: int) -> list[str] | None:
        from ._plain_table import table_lines

        return table_lines(self, width)


HelpPart = Line | JsonBlock | TableBlock


def _plain(value: Any, style: str = "") -> Line:
    """Catalogue text as it is: never markup."""
    return Line(style, ((value if isinstance(value, str) else str(value), ""),))


def _text(value: Any, style: str = "") -> Line:
    """A text as rich's ``Text(value)`` takes it (the payload's own strings)."""
    return Line(style, ((value, ""),))


def _kind(kind: str, badges: list[str] | None = None) -> Line:
    pieces: list[tuple[Any, str]] = [(kind, "")]
    for badge in badges or []:
        if badge not in ("read", "write"):
            pieces.append((f" {badge}", "red" if badge == "destructive" else "magenta"))
    return Line(KIND_STYLE.get(kind, ""), tuple(pieces))


def _json(value: Any) -> JsonBlock:
    return JsonBlock(json.dumps(value, indent=2, ensure_ascii=False))


def _error(payload: dict[str, Any], help_command: str) -> list[HelpPart]:
    error = payload["error"]
    parts: list[HelpPart] = [_plain(f"{error['code']}: {error['message']}", "bold red")]
    if error.get("hints"):
        parts.append(_plain("closest: " + ", ".join(error["hints"]), "yellow"))
    if error.get("code") == "UNKNOWN_PATH" and error.get("hints"):
        # next_action is the agent's call (help(path='onto.output')); a person types this front end's command.
        parts.append(_plain(f"next: {help_command} {error['hints'][0]}", "dim"))
    elif error.get("next_action"):
        parts.append(_plain(f"next: {error['next_action']}", "dim"))
    return parts


def _page_note(payload: dict[str, Any]) -> list[HelpPart]:
    """For a paged answer: what this page shows, and the command for the next one."""
    page = payload.get("page")
    if not isinstance(page, dict):
        return []
    first = page.get("offset", 0) + 1
    note = f"entries {first}-{first + page.get('shown', 0) - 1} of {page.get('groups', 0) + page.get('ops', 0)}, largest groups first"
    if page.get("next_cursor"):
        note += f"; next page: --cursor {page['next_cursor']}"
    return [_plain(note, "dim")]


def _ops(count: int) -> str:
    return f"{count} op" if count == 1 else f"{count} ops"


def _root(payload: dict[str, Any]) -> list[HelpPart]:
    table = TableBlock(
        (Column("group", style="bold cyan"), Column("ops", justify="right"), Column("summary")),
        tuple((_plain(group["name"]), str(group["ops"]), _plain(group.get("summary", ""))) for group in payload["groups"]),
        title=f"opgate: {_ops(payload['ops'])}",
    )
    parts: list[HelpPart] = [table]
    if payload.get("unavailable"):
        # Configured upstreams that offer nothing now: shown, so a namespace that failed to start does not just vanish.
        columns = (Column("upstream", style="bold red"), Column("state"), Column("why"))
        parts.append(TableBlock(columns, tuple((_plain(line["name"]), _plain(line["state"]), _plain(line["why"])) for line in payload["unavailable"]), title="unavailable now"))
    return [*parts, *_page_note(payload), _text(payload.get("next", ""), "dim")]


def _group(payload: dict[str, Any]) -> list[HelpPart]:
    parts: list[HelpPart] = [_plain(f"{payload['path']}  ({_ops(payload['ops'])})", "bold cyan")]
    if payload.get("summary"):
        parts.append(_text(payload["summary"]))
    if payload.get("groups"):
        columns = tuple(Column(name, justify="left" if name == "group" else "right") for name in ("group", "ops", "read", "write"))
        rows = tuple((_plain(f"{payload['path']}.{group['name']}"), str(group["ops"]), str(group["read"]), str(group["write"])) for group in payload["groups"])
        parts.append(TableBlock(columns, rows))
    if payload.get("list"):
        columns = (Column("op", style="cyan", no_wrap=True), Column("kind"), Column("summary"))
        parts.append(TableBlock(columns, tuple((_plain(line["op"]), _kind(line["kind"], line.get("badges")), _plain(line["summary"])) for line in payload["list"])))
    if payload.get("op"):
        parts += _op(payload["op"])
    parts += _page_note(payload)
    if payload.get("next"):
        parts.append(_text(payload["next"], "dim"))
    return parts


def _args_table(args: list[dict[str, Any]]) -> TableBlock:
    rows = []
    for arg in args:
        description = arg.get("description", "")
        if arg.get("enum"):
            description = f"{description} [{', '.join(map(str, arg['enum']))}]".strip()
        if arg.get("shapes"):
            description = f"{description} one of: {'; '.join(map(str, arg['shapes']))}".strip()
        default = json.dumps(arg["default"]) if "default" in arg else ""
        rows.append((_plain(arg["name"], "bold" if arg["required"] else ""), _plain(arg["type"]), "yes" if arg["required"] else "", _plain(default), _plain(description)))
    return TableBlock(tuple(Column(name) for name in ("arg", "type", "req", "default", "description")), tuple(rows))


def _op(payload: dict[str, Any]) -> list[HelpPart]:
    title = Line("bold cyan", ((payload["op"], ""), ("  ", ""), (_kind(payload["kind"], payload.get("badges")), ""), (f"  tool: {payload['tool_name']}", "dim")))
    parts: list[HelpPart] = [title, _text(payload["summary"])]
    if payload.get("description"):
        parts.append(_text(payload["description"], "italic"))
    parts.append(Line("bold", (("usage: ", ""), (payload["usage"], ""))))
    if payload["args"]:
        parts.append(_args_table(payload["args"]))
    for note in payload.get("notes", []):
        parts.append(_plain(f"• {note}", "dim"))
    policy = payload.get("policy")
    if policy:
        for key, label, style in (("do", "do", "green"), ("dont", "don't", "red"), ("edge_cases", "edge cases", "yellow")):
            for line in policy.get(key, []):
                parts.append(Line(f"bold {style}", ((f"{label}: ", ""), (line, ""))))
    for example in payload.get("examples", []):
        parts.append(_plain(f"example: {example.get('title', '')}", "bold"))
        parts.append(_json(example.get("args", {})))
    if payload.get("schema"):
        parts += [_plain("schema", "bold"), _json(payload["schema"])]
    return parts


def help_parts(payload: dict[str, Any], *, help_command: str = "opgate help") -> list[HelpPart]:
    """A help answer for people; ``help_command`` is how this front end asks for help (the REPL says ``help``)."""
    if not payload.get("ok"):
        return _error(payload, help_command)
    kind = payload.get("type")
    if kind == "root":
        return _root(payload)
    if kind == "op":
        return _op(payload)
    return _group(payload)
