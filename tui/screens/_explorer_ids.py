"""Ids in the call being built: picking one from the workspace (F7), and the name shown beside each.

Mixed into :class:`~opgate.tui.screens.explorer.ExplorerScreen`, which provides ``builder``,
``call_args`` and ``panes_mounted``. Its handlers are named (``on_<message>``): Textual finds
those on every class of the screen, while it registers ``@on`` only on classes made by its metaclass.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual import work
from textual.message import Message

if TYPE_CHECKING:
    from ..widgets.call_form import CallForm
    from ..widgets.form_field import FormField
    from .explorer import ExplorerScreen


class CallIds:
    """F7 picks an id; the names of the entities the call's ids name are shown beside them."""

    @dataclass
    class NamesFound(Message):
        """The store named these ids (``{id: name}``)."""

        names: dict[str, str]

    def on_form_field_pick_requested(self, event: FormField.PickRequested) -> None:
        from .id_picker import IdPickerScreen

        args = self.call_args  # type: ignore[attr-defined]
        project = args.get("project_id") if event.name != "project_id" else None
        moving = args.get("document_id") if event.name in ("new_parent_id", "parent_id") else None

        async def picked(choice: tuple[str | None, str] | None) -> None:
            if choice:
                if choice[0] is not None:
                    self.app.entity_names.add({choice[0]: choice[1]})  # type: ignore[attr-defined]
                    self.builder.show_names(self.app.entity_names.names)  # type: ignore[attr-defined]
                await self.builder.set_field(event.path, choice[0])  # type: ignore[attr-defined]
                if event.field.is_attached:
                    event.field.set_note(choice[1])
                    event.field.focus_input()

        picker = IdPickerScreen(
            event.name, project if isinstance(project, str) else None,
            moving=moving if isinstance(moving, str) else None, offer_root=event.field.slot.spec.nullable,
        )
        self.app.push_screen(picker, picked)  # type: ignore[attr-defined]

    def on_call_form_names_wanted(self, event: CallForm.NamesWanted) -> None:
        event.stop()
        book = self.app.entity_names  # type: ignore[attr-defined]
        if any(i in book.names for i in event.ids):
            self.builder.show_names(book.names)  # type: ignore[attr-defined]
        if book.to_ask(event.ids):
            self.look_up_names(event.args)

    @work(thread=True, exit_on_error=False, group="names", name="names of the ids")
    def look_up_names(self, args: dict[str, Any]) -> None:
        try:
            names = self.app.gateway.id_names(args)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - a name is a help: a store that cannot answer now says so on the call itself
            return
        self.post_message(self.NamesFound(names))  # type: ignore[attr-defined]

    def on_call_ids_names_found(self, event: NamesFound) -> None:
        self.app.entity_names.add(event.names)  # type: ignore[attr-defined]
        if self.panes_mounted:  # type: ignore[attr-defined]
            self.builder.show_names(self.app.entity_names.names)  # type: ignore[attr-defined]

    def on_explorer_screen_call_done(self, event: ExplorerScreen.CallDone) -> None:
        """After the screen's own handler: the answer's names (the app learnt them) go to the form too."""
        if self.panes_mounted:  # type: ignore[attr-defined]
            self.builder.show_names(self.app.entity_names.names)  # type: ignore[attr-defined]


__all__ = ["CallIds"]
