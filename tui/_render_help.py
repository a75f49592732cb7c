"""An op's help payload (``gw.help(op, format="full")``) as Rich renderables."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ._palette import Palette, json_syntax
from ._plain import data_text, shown

POLICY_TITLES = (("do", "Do"), ("dont", "Don't"), ("edge_cases", "Edge cases"))
BADGE_STYLES = {"read": "success", "write": "warning", "destructive": "error", "confirmation": "accent", "browse-only": "muted"}


def badges_text(badges: list[str] | tuple[str, ...], palette: Palette) -> Text:
    text = Text()
    for badge in badges:
        style = getattr(palette, BADGE_STYLES.get(badge, "muted"))
        text.append(f" {badge} ", f"bold reverse {style}")
        text.append(" ")
    return text


def _ops(count: int) -> str:
    return f"{count} op" if count == 1 else f"{count} ops"


def _heading(title: str, palette: Palette) -> Text:
    return Text(f"\n{title}", style=f"bold {palette.primary}")


def _describe(row: dict[str, Any]) -> str:
    parts = [row.get("description") or ""]
    if "default" in row:
        default = row["default"]
        parts.append(f"default: {str(default).lower() if isinstance(default, bool) else default}")
    if row.get("enum"):
        parts.append("one of: " + ", ".join(map(str, row["enum"])))
    bounds = [f"≥ {row['minimum']}" if "minimum" in row else "", f"≤ {row['maximum']}" if "maximum" in row else ""]
    if any(bounds):
        parts.append(" ".join(b for b in bounds if b))
    return "  ".join(p for p in parts if p)


def args_table(rows: list[dict[str, Any]], palette: Palette) -> Table:
    table = Table(box=box.SIMPLE_HEAD, expand=True, pad_edge=False, show_edge=False, header_style=f"bold {palette.muted}")
    table.add_column("name", no_wrap=True, style="bold")
    table.add_column("type", no_wrap=True, style=palette.primary)
    table.add_column("req", no_wrap=True)
    table.add_column("description", ratio=1)
    for row in rows:
        required = Text("yes", style=f"bold {palette.warning}") if row.get("required") else Text("")
        table.add_row(data_text(row["name"]), data_text(row.get("type", "")), required, data_text(_describe(row)))
    return table


def _bullets(items: list[str], style: str = "") -> Group:
    return Group(*(Padding(Text.assemble(("• ", "dim"), (shown(item), style)), (0, 0, 0, 1)) for item in items))


def _policy(policy: dict[str, list[str]], palette: Palette) -> list[RenderableType]:
    out: list[RenderableType] = []
    for key, title in POLICY_TITLES:
        if policy.get(key):
            colour = {"do": palette.success, "dont": palette.error}.get(key, palette.warning)
            out.append(Text(title, style=f"bold {colour}"))
            out.append(_bullets(policy[key]))
    return out


def _examples(examples: list[dict[str, Any]], palette: Palette) -> list[RenderableType]:
    out: list[RenderableType] = []
    for index, example in enumerate(examples, 1):
        out.append(Text.assemble((f"{index}. ", "bold"), (shown(example.get("title") or "example"), "italic")))
        out.append(Padding(json_syntax(example.get("args", {}), palette, indent=None), (0, 0, 0, 3)))
    return out


def render_group(payload: dict[str, Any], palette: Palette) -> RenderableType:
    """A group, a read/write bucket or the root: its ops (or subgroups) with counts and badges."""
    title = "all ops" if payload.get("type") == "root" else payload.get("path", "")
    parts: list[RenderableType] = [Text.assemble((shown(title), "bold"), (f"  {_ops(payload.get('ops', 0))}", "dim"))]
    if payload.get("summary"):
        parts.append(data_text(payload["summary"]))
    groups = payload.get("groups") or []
    if groups:
        parts.append(_heading("Groups", palette))
        table = Table(box=None, show_header=False, expand=True, pad_edge=False)
        table.add_column("name", no_wrap=True, style="bold")
        table.add_column("ops", no_wrap=True, justify="right")
        table.add_column("about", ratio=1)
        for group in groups:
            counts = f"{group.get('ops', 0)}" + (f" ({group['read']}r {group['write']}w)" if "read" in group else "")
            table.add_row(data_text(group["name"]), counts, data_text(group.get("summary", ""), style="dim"))
        parts.append(table)
    ops = payload.get("list") or []
    if ops:
        parts.append(_heading("Ops", palette))
        for line in ops:
            parts.append(Text.assemble((shown(line["op"]), "bold"), "  ", badges_text([line.get("kind", ""), *line.get("badges", [])], palette)))
            parts.append(Padding(data_text(line.get("summary", ""), style="dim"), (0, 0, 0, 2)))
    parts.append(Text("\n→ opens a group · Enter on an op opens it in the builder · / finds an op", style="dim"))
    return Group(*parts)


def render_help(payload: dict[str, Any] | None, palette: Palette, *, show_schema: bool = False) -> RenderableType:
    """Summary, usage, args, policy, notes, examples, and the schema when asked."""
    if not payload:
        return Text("Pick an op in the tree (or press / to find one) to read its help here.", style="dim")
    if not payload.get("ok"):
        error = payload.get("error") or {}
        return data_text(f"{error.get('code', 'ERROR')}: {error.get('message', 'no help')}", style=palette.error)
    if payload.get("type") in ("group", "root"):
        return render_group(payload, palette)
    parts: list[RenderableType] = [Text.assemble((shown(payload.get("op", "")), "bold"), "  ", badges_text(payload.get("badges") or [payload.get("kind", "")], palette))]
    parts.append(data_text(payload.get("summary", "")))
    parts.append(data_text(f"tool: {payload.get('tool_name', '')}", style="dim"))
    if payload.get("description") and payload["description"] != payload.get("summary"):
        parts += [_heading("Description", palette), data_text(payload["description"])]
    parts += [_heading("Usage", palette), Padding(data_text(payload.get("usage", ""), style=palette.accent), (0, 0, 0, 1))]
    if payload.get("args"):
        parts += [_heading("Arguments", palette), args_table(payload["args"], palette)]
    else:
        parts += [_heading("Arguments", palette), Text(" none", style="dim")]
    if payload.get("policy"):
        parts += [_heading("Policy", palette), *_policy(payload["policy"], palette)]
    if payload.get("notes"):
        parts += [_heading("Notes", palette), _bullets(payload["notes"])]
    if payload.get("examples"):
        parts += [_heading("Examples (ctrl+t puts one in the form)", palette), *_examples(payload["examples"], palette)]
    if show_schema:
        parts += [_heading("Schema (F2 again hides it)", palette), json_syntax(payload.get("schema", {}), palette)]
    else:
        parts.append(Text("\nF2 again shows the JSON Schema", style="dim"))
    return Group(*parts)
