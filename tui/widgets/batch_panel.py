"""The calls collected for a batch, and each step's outcome once the batch has run."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from opgate.core.call_history import args_text

from .._palette import Palette
from .._plain import shown


class BatchPanel(Static):
    """The screen sets :attr:`steps` (``[{op, args}]``) and :attr:`results` (the envelopes of ``gw.batch``);
    :attr:`names` (``{id: name}``) puts names beside the ids, as the history's rows do."""

    DEFAULT_CSS = """
    BatchPanel { height: auto; max-height: 12; padding: 0 1; border-top: solid $foreground 20%; overflow-y: auto; }
    """

    steps: reactive[list[dict[str, Any]]] = reactive(list, layout=True, always_update=True)
    results: reactive[list[dict[str, Any]]] = reactive(list, layout=True, always_update=True)
    names: reactive[dict[str, str]] = reactive(dict, layout=True)

    def render(self) -> Any:
        palette = Palette.of(self.app)
        if not self.steps:
            return Text("Batch: empty. Space adds the highlighted call; ctrl+d dry-runs the batch, ctrl+b runs it.", style="dim")
        lines = [Text.assemble((f"Batch: {len(self.steps)} call(s)", "bold"), ("  ctrl+d dry-runs · ctrl+b runs · ctrl+x empties", "dim"))]
        for index, step in enumerate(self.steps):
            line = Text.assemble(f"{index + 1}. ", (shown(step["op"]), "bold"), " ", (shown(args_text(step.get("args"), 70, self.names)), "dim"))
            if index < len(self.results):
                result = self.results[index]
                if result.get("ok"):
                    dry = " (dry-run)" if (result.get("meta") or {}).get("dry_run") else ""
                    line.append(f"  ✓ ok{dry}", style=palette.success)
                else:
                    error = result.get("error") or {}
                    line.append(f"  ✗ {error.get('code')}: {error.get('message', '')[:80]}", style=palette.error)
            lines.append(line)
        return Group(*lines)
