"""A big form mounts a screenful first and the rest in batches (see ``tui.forms._plan``).

Mixed into :class:`~opgate.tui.widgets.call_form.CallForm`, which holds the state named below and
builds the first batch. A Widget itself, not a plain mixin: Textual registers ``@on`` handlers only
on classes made by its metaclass.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from textual import events, on, work
from textual.widget import Widget

from ..forms import Path, PlacedErrors, Placement, Section, Slot, next_batch
from .form_build import build_widget, more_text
from .form_field import FormField
from .form_group import FormGroup
from .form_section import FormSection

if TYPE_CHECKING:
    from textual.widgets import Static

# Batches wait until the person has not typed (nor opened the op) for this long, so that mounting never delays an echo.
TYPING_PAUSE = 0.3


class FormBatches(Widget):
    """Mounts what :attr:`_pending` holds: after a pause in typing, when scrolled near, when Tab or a focus reaches it."""

    # CallForm holds this state (and provides _show_field and _name_fields).
    args: dict
    problems: dict[Path, str]
    slot: Slot | None
    sections: tuple[Section, ...] | None
    _errors: PlacedErrors
    _fields: list[FormField]
    _groups: list[FormGroup]
    _by_path: dict[Path, FormField]
    _pending: list[Placement]
    _more: Static | None
    _mounting: asyncio.Lock
    _last_edit: float
    _scroll_batch_due: bool
    _reached: int

    @work(exclusive=True, group="form-mount", exit_on_error=False, name="mount the rest of the form")
    async def _mount_rest(self) -> None:
        while self._pending:
            while (wait := self._last_edit + TYPING_PAUSE - time.monotonic()) > 0:
                await asyncio.sleep(wait)
            await self._mount_next()
            # Let a frame through between batches: keys typed meanwhile are handled before the next one.
            drawn = asyncio.Event()
            self.call_after_refresh(drawn.set)
            await drawn.wait()

    async def _mount_next(self, through: Path | None = None) -> list[FormField]:
        """Mount the next batch (or up to the argument at ``through``); the fields it made."""
        async with self._mounting:
            if not self._pending:
                return []
            count = next_batch(self._pending, through)
            batch, self._pending = self._pending[:count], self._pending[count:]
            made: list[Widget] = []
            for section in (self.sections or (None,)) if self.slot is not None and self.slot.role == "object" else (None,):
                name = section.name if section is not None else None
                widgets = [build_widget(p.slot, self.args) for p in batch if p.section == name]
                if not widgets:
                    continue
                if name is not None:
                    await self.query_one(f"#section-{name}", FormSection).mount_all(widgets)
                elif self._more is not None:
                    await self.mount_all(widgets, before=self._more)
                else:
                    await self.mount_all(widgets)
                made.extend(widgets)
            fields = [f for w in made for f in ([w] if isinstance(w, FormField) else w.query(FormField))]
            self._fields.extend(fields)
            self._groups.extend(g for w in made for g in ([w] if isinstance(w, FormGroup) else w.query(FormGroup)))
            self._by_path.update((f.slot.path, f) for f in fields)
            for field in fields:
                if field.slot.path in self._errors.by_path or field.slot.path in self.problems:
                    self._show_field(field)
            self._name_fields(fields)
            if self._pending and self._more is not None:
                self._more.update(more_text(self._pending))
            elif self._more is not None:
                await self._more.remove()
                self._more = None
            return fields

    async def _reveal(self, path: Path) -> None:
        """Mount up to the argument at ``path`` and focus it."""
        while self._pending and not any(f.slot.path[: len(path)] == path for f in self._fields):
            await self._mount_next(through=path)
        for field in self._fields:
            if field.slot.path[: len(path)] == path:
                field.focus_input()
                return

    def on_mount(self) -> None:
        self.watch(self, "scroll_y", self._scrolled, init=False)

    def _scrolled(self) -> None:
        """Scrolled within a screen of the end of what is mounted: the next batch comes now."""
        if self._pending and not self._scroll_batch_due and self.scroll_y >= self.max_scroll_y - self.size.height:
            self._scroll_batch_due = True
            self.call_later(self._batch_for_scroll)

    async def _batch_for_scroll(self) -> None:
        try:
            await self._mount_next()
        finally:
            self._scroll_batch_due = False

    @on(events.DescendantFocus)
    async def _focus_reached_more(self, event: events.DescendantFocus) -> None:
        more = self._more
        if more is None or event.widget is not more:
            # How far the form was mounted while the person was in a field: Tab onto "more" goes to the next one,
            # even when scrolling to the "more" line mounted a batch first.
            self._reached = len(self._fields)
            return
        if self.screen.focused is not more:
            return
        reached = self._reached
        await self._mount_next()
        if len(self._fields) > reached and self.screen.focused is more:
            self._fields[reached].focus_input()
