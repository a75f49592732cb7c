"""Copy the call: as the JSON payload, as an ``opgate exec`` command line, as Python, or (HTTP ops) as curl."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from .._keys import COPY_FORMATS

KEYS = {"json": "j", "cli": "c", "python": "p", "curl": "u"}


class CopyScreen(ModalScreen[str | None]):
    """Dismisses with ``json``, ``cli``, ``python`` or ``curl``; offers the formats it is given previews of."""

    BINDINGS: ClassVar = [
        Binding("j", "choose('json')", "JSON", tooltip="The exec payload as JSON", id="opgate.copy.json"),
        Binding("c", "choose('cli')", "CLI", tooltip="An opgate exec command line", id="opgate.copy.cli"),
        Binding("p", "choose('python')", "Python", tooltip="gw.exec(...) in Python", id="opgate.copy.python"),
        Binding("u", "choose('curl')", "curl", tooltip="The HTTP request as a curl command (HTTP ops)", id="opgate.copy.curl"),
        Binding("escape", "choose('')", "Close", tooltip="Copy nothing", id="opgate.copy.close"),
    ]

    def __init__(self, previews: dict[str, str]):
        super().__init__()
        self.previews = previews

    def compose(self) -> ComposeResult:
        with Vertical(id="copy-box", classes="modal-box"):
            yield Label("[b]Copy the call as…[/b]")
            options = [Option(self._prompt(fmt, title), id=fmt) for fmt, title in COPY_FORMATS if fmt in self.previews]
            yield OptionList(*options, id="copy-list")

    def _prompt(self, fmt: str, title: str, width: int = 0) -> Content:
        """The key and format, then the preview's first line on one row, ending in "…" where the box cuts it
        (a preview cut at a fixed length and wrapped showed '{"project_id":"10000000-0000-4000' as if whole)."""
        lines = self.previews.get(fmt, "").splitlines()
        # The preview holds the call's arguments: plain content, never markup.
        preview = Content(lines[0] if lines else "")
        if width:
            preview = preview.truncate(width, ellipsis=True)
        return Content.assemble((KEYS[fmt], "bold"), f"  {title}\n", preview.stylize("dim"))

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_previews)

    def _fit_previews(self) -> None:
        """Each preview fits the list's width: known only once the box is laid out, and again at each resize."""
        options = self.query_one(OptionList)
        # The list's own padding is inside the region its options are drawn in; an option's padding too.
        width = options.scrollable_content_region.width - options.styles.padding.width - options.get_component_styles("option-list--option").padding.width
        if width > 1:
            for fmt, title in COPY_FORMATS:
                if fmt in self.previews:
                    options.replace_option_prompt(fmt, self._prompt(fmt, title, width))

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self.call_after_refresh(self._fit_previews)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_choose(self, fmt: str) -> None:
        self.dismiss(fmt if fmt in self.previews else None)
