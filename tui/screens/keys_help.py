"""F1: every key (read from the same binding lists as the footer and the palette), the badges, a how-to."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from .._keys import SECTIONS

HOW_TO = """[b]Build a call in five steps[/b]
1. Find the op: [b]/[/b] or [b]ctrl+f[/b] and type part of its path or plain words, or walk the tree (→ opens a group).
2. [b]Enter[/b] opens it in the builder (F3). Fill the form; [b]F7[/b] (or [b]pick[/b]) picks ids from the workspace.
3. [b]F5[/b] dry-runs it: the result and the store diff, nothing written.
4. [b]F6[/b] runs it. Writes need allow-write ([b]F8[/b]) and ask you first, showing what will change.
5. [b]ctrl+r[/b] shows the history: re-open a call, or collect calls into a batch.

[b]Keep it[/b]  [b]ctrl+s[/b] saves the call to a collection · [b]ctrl+o[/b] shows the collections (F5/F6 there run them)

[b]Badges[/b]  [b]r[/b] read · [b]w[/b] write · [b]del[/b] destructive · [b]ask[/b] needs confirmation

[b]Your own keys[/b]  opgate.toml moves a key by the id under its description: \\[explorer] keymap = { "opgate.dry_run" = "ctrl+y" }"""


class KeysHelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar = [Binding("escape,f1,q", "close", "Close", tooltip="Back", id="opgate.help.close")]

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="modal-box"):
            yield Label("[b]opgate explorer[/b]  [dim]Esc closes · ctrl+p opens the command palette[/dim]")
            with VerticalScroll():
                yield Static(HOW_TO, markup=True)
                yield Static(self._keys_table(), id="help-keys")

    def _keys_table(self) -> Group:
        tables = []
        for title, bindings in SECTIONS:
            table = Table(box=box.SIMPLE, title=title, title_justify="left", title_style="bold", show_header=False, expand=True, pad_edge=False)
            table.add_column("key", no_wrap=True, style="bold", min_width=12)
            table.add_column("action", no_wrap=True, min_width=14)
            table.add_column("what", ratio=1)
            remapped = getattr(self.app, "keymap_overrides", {})
            for binding in bindings:
                if binding.id in remapped:
                    binding = replace(binding, key=remapped[binding.id], key_display=None)
                # The id is what [explorer.keymap] in opgate.toml names: this screen is where people find it.
                what = Text.assemble((binding.tooltip, "dim"), "\n", (binding.id or "", "italic"))
                table.add_row(self.app.get_key_display(binding), binding.description, what)
            tables.append(table)
        return Group(*tables)

    def action_close(self) -> None:
        self.dismiss(None)
