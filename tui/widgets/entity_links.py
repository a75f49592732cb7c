"""The ids a call's answer names (``meta.entities``), as a list: a store entity opens, an upstream's id is copied."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from .._keys import RESULT_KEYS
from .._plain import shown


class EntityLinks(OptionList):
    """The parent calls :meth:`show`; Enter (or a click) posts :class:`EntityChosen` for a store
    entity, or :class:`IdChosen` for an id an upstream answered with (no get op of ours opens it).
    ``c`` posts :class:`IdChosen` for a store entity too: a QA engineer needs its id as often as its record."""

    BINDINGS: ClassVar = RESULT_KEYS

    DEFAULT_CSS = """
    EntityLinks { height: auto; max-height: 8; border: none; padding: 0 1; }
    """

    @dataclass
    class EntityChosen(Message):
        """Open this entity (``kind`` is a guess, or ``None``)."""

        id: str
        kind: str | None

    @dataclass
    class IdChosen(Message):
        """Copy this id (it came from an upstream's answer)."""

        id: str

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._kinds: dict[str, str | None] = {}
        self.opens = True

    def show(self, entities: list[tuple[str, str | None, str]], *, opens: bool = True) -> None:
        """``opens``: the ids are store entities, which Enter opens; otherwise Enter copies the id."""
        self.clear_options()
        self.opens = opens
        self._kinds = {i: k for i, k, _ in entities}
        for entity_id, kind, name in entities:
            if opens:
                label = Text.assemble(("→ ", "bold"), (f"{shown(kind or 'entity')} ", "italic"), shown(entity_id), (f"  {shown(name)}" if name else "", "bold"))
            else:
                label = Text.assemble(("· ", "dim"), shown(entity_id), (f"  {shown(name)}" if name else "", "bold"))
            self.add_option(Option(label, id=entity_id))
        self.display = bool(entities)

    def on_focus(self) -> None:
        # Tab lands here with nothing highlighted, and Enter would then do nothing: the first entity is where Enter starts.
        if self.highlighted is None and self.option_count:
            self.highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        entity_id = event.option.id or ""
        if self.opens:
            self.post_message(self.EntityChosen(entity_id, self._kinds.get(entity_id)))
        else:
            self.post_message(self.IdChosen(entity_id))

    def action_copy_id(self) -> None:
        if self.highlighted is None:
            return
        entity_id = self.get_option_at_index(self.highlighted).id
        if entity_id:
            self.post_message(self.IdChosen(entity_id))
