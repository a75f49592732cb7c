"""The form for an op's arguments, generated from its JSON Schema (see ``tui.forms``).

A big form is mounted a screenful first and the rest in batches (``tui.forms._plan``):
the values live in :attr:`CallForm.args` whatever is mounted, so a call made
from a half-mounted form holds every argument.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from textual import events, on, work
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from ..forms import (
    MISSING,
    FieldSpec,
    Path,
    PlacedErrors,
    Placement,
    Section,
    Slot,
    edit,
    first_batch,
    get_at,
    initial_value,
    layout,
    layout_key,
    needs_value,
    new_item,
    next_batch,
    placements,
)
from .form_build import build_widget, more_text, top_widgets
from .form_field import FormField
from .form_group import FormGroup
from .form_section import FormSection

# Batches wait until the person has not typed (nor opened the op) for this long, so that mounting never delays an echo.
TYPING_PAUSE = 0.3
# The first batch holds at least this many inputs (every built-in op fits), else a screenful at two rows a field.
MIN_FIRST_WEIGHT = 16


class CallForm(VerticalScroll):
    """Edits a whole argument object. The parent calls :meth:`load`, :meth:`set_args` and :meth:`show_errors`."""

    DEFAULT_CSS = """
    CallForm { height: 1fr; padding: 0 1; }
    CallForm > .form-empty { color: $text-muted; }
    CallForm > .form-more { color: $text-muted; text-style: italic; }
    CallForm > .form-more:focus { background: $accent 25%; }
    """

    @dataclass
    class Changed(Message):
        """The arguments changed by an edit in the form."""

        args: dict[str, Any]

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.spec: FieldSpec | None = None
        self.args: dict[str, Any] = {}
        self.choices: dict[Path, int] = {}
        self.problems: dict[Path, str] = {}
        self.slot: Slot | None = None
        self.sections: tuple[Section, ...] | None = None
        self._key: tuple[Any, ...] | None = None
        self._errors = PlacedErrors()
        self._fields: list[FormField] = []
        self._groups: list[FormGroup] = []
        self._by_path: dict[Path, FormField] = {}
        # Paths whose field shows an error now (only they and the new errors' fields are updated).
        self._flagged: set[Path] = set()
        # Top-level argument -> its slot, and the arguments whose layout can follow their value (arrays, variants).
        self._tops: dict[str | int, Slot] = {}
        self._dynamic: set[str | int] = set()
        self._leaves: list[Slot] = []
        self._pending: list[Placement] = []
        self._more: Static | None = None
        self._mounting = asyncio.Lock()
        self._last_edit = 0.0
        self._scroll_batch_due = False
        self._reached = 0

    # -- parent API -----------------------------------------------------------------------

    async def load(self, spec: FieldSpec, args: dict[str, Any], sections: tuple[Section, ...] | None = None) -> None:
        """A new op: new spec, new arguments, fresh widgets; ``sections`` groups the top-level arguments (HTTP ops)."""
        self.spec, self.args, self.choices, self.problems = spec, args, {}, {}
        self.sections = sections
        await self._rebuild()

    async def set_args(self, args: dict[str, Any]) -> None:
        """New arguments from elsewhere (the JSON editor, an example): update in place when the layout holds."""
        self.args = args
        self.problems = {}
        if self.spec is None:
            return
        slot = layout(self.spec, args, self.choices)
        if layout_key(slot) != self._key:
            await self._rebuild()
            return
        self._set_slot(slot)
        for field in self._fields:
            value = get_at(args, field.slot.path)
            if type(value) is not type(field._value) or value != field._value:
                field.show_value(value)

    def show_errors(self, placed: PlacedErrors) -> None:
        """Field errors from the validator; a field's own parse problem wins over them.

        Only the fields that show an error, or get one, are touched: not all 205.
        """
        self._errors = placed
        for path in self._flagged | set(placed.by_path) | set(self.problems):
            if path in self._by_path:
                self._show_field(self._by_path[path])
        for group in self._groups:
            group.error = "; ".join(placed.by_path.get(group.slot.path, []))

    def _show_field(self, field: FormField) -> None:
        path = field.slot.path
        problem = self.problems.get(path)
        messages = [problem] if problem else self._errors.by_path.get(path, [])
        field.set_error("; ".join(messages), missing_only=not problem and path in self._errors.missing_only)
        if messages:
            self._flagged.add(path)
        else:
            self._flagged.discard(path)

    @property
    def fully_mounted(self) -> bool:
        """Every argument has its widget (a big form mounts in batches after its first frame)."""
        return not self._pending

    # -- building ---------------------------------------------------------------------------

    def _set_slot(self, slot: Slot) -> None:
        self.slot, self._key = slot, layout_key(slot)
        self._tops = {child.path[-1]: child for child in slot.children} if slot.role == "object" else {}
        self._dynamic = {name for name, child in self._tops.items() if any(s.role in ("array", "variant") for s in child.walk())}

    def _index(self) -> None:
        """Take note of the mounted fields and groups (kept, not queried: a query walks the whole form)."""
        self._fields = list(self.query(FormField))
        self._groups = list(self.query(FormGroup))
        self._by_path = {f.slot.path: f for f in self._fields}
        self._flagged &= set(self._by_path)

    async def _rebuild(self) -> None:
        focused = self.app.focused
        focus_path = next((w.slot.path for w in focused.ancestors_with_self if isinstance(w, FormField)), None) if focused else None
        self.workers.cancel_group(self, "form-mount")
        async with self._mounting:
            await self.remove_children()
            self._fields, self._groups, self._by_path, self._flagged = [], [], {}, set()
            self._pending, self._leaves, self._more = [], [], None
            if self.spec is None:
                return
            self._set_slot(layout(self.spec, self.args, self.choices))
            assert self.slot is not None
            if not self.slot.children and self.slot.role == "object":
                await self.mount(Static("This op takes no arguments.", classes="form-empty"))
                return
            plan = placements(self.slot, self.sections)
            self._leaves = [leaf for placement in plan for leaf in placement.leaves()]
            count = first_batch(plan, self.args, max(MIN_FIRST_WEIGHT, self.size.height // 2 + 1))
            first, self._pending = plan[:count], plan[count:]
            widgets: list[Widget] = top_widgets(first, self.args, self.sections if self.slot.role == "object" else None)
            if self._pending:
                self._more = Static(more_text(self._pending), classes="form-more")
                self._more.can_focus = True  # Tab past the last mounted field mounts the next batch there and then
                widgets.append(self._more)
            await self.mount_all(widgets)
            self._index()
            self.show_errors(self._errors)
        if focus_path is not None:
            self.focus_path(focus_path)
        if self._pending:
            self._last_edit = time.monotonic()  # the first frame and the person's first keys go before any batch
            self._mount_rest()

    # -- the rest of a big form, in batches ------------------------------------------------

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

    async def _rebuild_group(self, path: Path, role: str) -> None:
        """Rebuild only the array or variant at ``path`` (a whole form of Selects is slow to mount)."""
        assert self.spec is not None
        slot = layout(self.spec, self.args, self.choices)
        target = next((s for s in slot.walk() if s.path == path and s.role == role), None)
        old = next((g for g in self._groups if g.slot.path == path and g.slot.role == role), None)
        if target is None or old is None or old.parent is None:
            await self._rebuild()
            return
        await old.parent.mount(build_widget(target, self.args), after=old)
        await old.remove()
        self._set_slot(slot)
        self._index()
        self.show_errors(self._errors)

    async def _append_item(self, path: Path, index: int) -> None:
        assert self.spec is not None
        slot = layout(self.spec, self.args, self.choices)
        array = next((s for s in slot.walk() if s.path == path and s.role == "array"), None)
        group = next((g for g in self._groups if g.slot.path == path and g.slot.role == "array"), None)
        if array is None or group is None or len(array.children) != index + 1:
            await self._rebuild()
            return
        await group.append_item(array, build_widget(array.children[index], self.args))
        self._set_slot(slot)
        self._index()
        self.show_errors(self._errors)

    def focus_first_needed(self) -> bool:
        """Focus the first required field that has no value yet, or the first field, or (a form that
        starts as an empty list: "+ add") its first control: never leave the focus in the tree."""
        for leaf in self._leaves:
            field = self._by_path.get(leaf.path)
            if (field.slot.spec.required and field.is_empty) if field is not None else needs_value(leaf, self.args):
                return self.focus_path(leaf.path)
        if self.focus_path(()):
            return True
        control = next((w for w in self.query("*") if w.focusable), None)
        if control is not None:
            control.focus()
        return control is not None

    def focus_path(self, path: Path) -> bool:
        """Focus the input at ``path`` (or the first one under it); one not mounted yet is mounted first."""
        for field in self._fields:
            if field.slot.path[: len(path)] == path:
                field.focus_input()
                return True
        if any(p.slot.path[: len(path)] == path or path[: len(p.slot.path)] == p.slot.path for p in self._pending):
            self.call_later(self._reveal, path)
            return True
        return False

    # -- edits from the widgets ---------------------------------------------------------------

    def _changed(self) -> None:
        self.post_message(self.Changed(self.args))

    @on(FormField.Edited)
    async def _edited(self, event: FormField.Edited) -> None:
        event.stop()
        self._last_edit = time.monotonic()
        if event.problem:
            self.problems[event.path] = event.problem
            self._show_field(event.field)
            return
        if self.problems.pop(event.path, None) is not None:
            self._show_field(event.field)
        assert self.spec is not None
        self.args = edit(self.args, self.spec, event.path, event.value)
        if self._layout_moved(event.path):
            await self._rebuild()
        self._changed()

    def _layout_moved(self, path: Path) -> bool:
        """Whether the value at ``path`` changed which widgets the form needs (only arrays and variants can)."""
        assert self.spec is not None
        top = self._tops.get(path[0]) if path else None
        if top is None:
            return layout_key(layout(self.spec, self.args, self.choices)) != self._key
        if path[0] not in self._dynamic:
            return False
        return layout_key(layout(top.spec, self.args, self.choices, top.path)) != layout_key(top)

    @on(FormGroup.ItemAdded)
    async def _item_added(self, event: FormGroup.ItemAdded) -> None:
        event.stop()
        slot = self._slot_at(event.path, "array")
        if slot is None or slot.spec.items is None:
            return
        items = get_at(self.args, event.path)
        index = len(items) if isinstance(items, list) else 0
        assert self.spec is not None
        self.args = edit(self.args, self.spec, event.path + (index,), new_item(slot.spec.items))
        await self._append_item(event.path, index)
        self.focus_path(event.path + (index,))
        self._changed()

    @on(FormGroup.ItemRemoved)
    async def _item_removed(self, event: FormGroup.ItemRemoved) -> None:
        event.stop()
        assert self.spec is not None
        array = event.path[:-1]
        self.choices = {p: i for p, i in self.choices.items() if p[: len(array)] != array}
        self.args = edit(self.args, self.spec, event.path, MISSING)
        await self._rebuild_group(array, "array")
        self._changed()

    @on(FormGroup.VariantChosen)
    async def _variant_chosen(self, event: FormGroup.VariantChosen) -> None:
        event.stop()
        slot = self._slot_at(event.path, "variant")
        if slot is None:
            return
        assert self.spec is not None
        self.choices = {p: i for p, i in self.choices.items() if p[: len(event.path)] != event.path}
        self.choices[event.path] = event.index
        variant = slot.spec.variants[event.index].spec
        fresh = new_item(variant) if slot.in_array or slot.spec.required else initial_value(variant)
        self.args = edit(self.args, self.spec, event.path, fresh)
        await self._rebuild_group(event.path, "variant")
        self._changed()

    def _slot_at(self, path: Path, role: str) -> Slot | None:
        if self.slot is None:
            return None
        return next((s for s in self.slot.walk() if s.path == path and s.role == role), None)
