"""The call form's answers to edits in its widgets: a value typed, an item added or removed, a variant chosen.

Mixed into :class:`~opgate.tui.widgets.call_form.CallForm`, which holds the state named below.
Each edit changes :attr:`args` and goes up as ``CallForm.Changed``; only an edit that changes which
widgets the form needs rebuilds them, and then only the array or variant it touched.
A Widget itself, not a plain mixin: Textual registers ``@on`` handlers only on classes made by its metaclass.
"""

from __future__ import annotations

import time
from typing import Any

from textual import on
from textual.message import Message
from textual.widget import Widget

from ..forms import MISSING, FieldSpec, Path, PlacedErrors, Slot, edit, get_at, initial_value, layout, layout_key, new_item
from .form_build import build_widget
from .form_field import FormField
from .form_group import FormGroup


class FormEdits(Widget):
    """Turns the widgets' messages into new arguments (and the widgets they need)."""

    # CallForm holds this state (and provides _rebuild, _set_slot, _index, _show_field, _name_fields, show_errors, focus_path).
    spec: FieldSpec | None
    args: dict[str, Any]
    choices: dict[Path, int]
    problems: dict[Path, str]
    slot: Slot | None
    _key: tuple[Any, ...] | None
    _errors: PlacedErrors
    _groups: list[FormGroup]
    _tops: dict[str | int, Slot]
    _dynamic: set[str | int]
    _last_edit: float
    Changed: type[Message]

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
        elif event.field.is_attached:
            self._name_fields([event.field])
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
