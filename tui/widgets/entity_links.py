"""The entities a call touched (``meta.entities``), as a list that opens the one chosen."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option


class EntityLinks(OptionList):
    """The parent calls :meth:`show`; Enter (or a click) posts :class:`EntityChosen`."""

    DEFAULT_CSS = """
    EntityLinks { height: auto; max-height: 8; border: none; padding: 0 1; }
    """

    @dataclass
    class EntityChosen(Message):
        """Open this entity (``kind`` is a guess, or ``None``)."""

        id: str
        kind: str | None

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._kinds: dict[str, str | None] = {}

    def show(self, entities: list[tuple[str, str | None, str]]) -> None:
        self.clear_options()
        self._kinds = {i: k for i, k, _ in entities}
        for entity_id, kind, name in entities:
            label = Text.assemble(("→ ", "bold"), (f"{kind or 'entity'} ", "italic"), entity_id, (f"  {name}" if name else "", "bold"))
            self.add_option(Option(label, id=entity_id))
        self.display = bool(entities)

    def on_focus(self) -> None:
        # Tab lands here with nothing highlighted, and Enter would then do nothing: the first entity is where Enter starts.
        if self.highlighted is None and self.option_count:
            self.highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        entity_id = event.option.id or ""
        self.post_message(self.EntityChosen(entity_id, self._kinds.get(entity_id)))
