"""The form for an op's arguments, generated from its JSON Schema (see ``tui.forms``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual import on
from textual.message import Message
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from ..forms import (
    MISSING,
    FieldSpec,
    Path,
    PlacedErrors,
    Section,
    Slot,
    edit,
    get_at,
    initial_value,
    layout,
    layout_key,
    new_item,
)
from .form_field import FormField
from .form_group import FormGroup
from .form_section import FormSection


def build_widget(slot: Slot, args: Any) -> Widget:
    """The widget for ``slot``: a field for a leaf, a group around the widgets of its children."""
    if slot.role == "leaf":
        return FormField(slot, get_at(args, slot.path))
    return FormGroup(slot, *(build_widget(child, args) for child in slot.children))


class CallForm(VerticalScroll):
    """Edits a whole argument object. The parent calls :meth:`load`, :meth:`set_args` and :meth:`show_errors`."""

    DEFAULT_CSS = """
    CallForm { height: 1fr; padding: 0 1; }
    CallForm > .form-empty { color: $text-muted; }
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
        self.slot = slot
        for field in self._fields:
            field.show_value(get_at(args, field.slot.path))

    def show_errors(self, placed: PlacedErrors) -> None:
        """Field errors from the validator; a field's own parse problem wins over them."""
        self._errors = placed
        for field in self._fields:
            path = field.slot.path
            problem = self.problems.get(path)
            messages = [problem] if problem else placed.by_path.get(path, [])
            field.set_error("; ".join(messages), missing_only=not problem and path in placed.missing_only)
        for group in self._groups:
            group.error = "; ".join(placed.by_path.get(group.slot.path, []))

    # -- building ---------------------------------------------------------------------------

    async def _rebuild(self) -> None:
        focused = self.app.focused
        focus_path = next((w.slot.path for w in focused.ancestors_with_self if isinstance(w, FormField)), None) if focused else None
        await self.remove_children()
        self._fields, self._groups = [], []
        if self.spec is None:
            return
        self.slot = layout(self.spec, self.args, self.choices)
        self._key = layout_key(self.slot)
        if not self.slot.children and self.slot.role == "object":
            await self.mount(Static("This op takes no arguments.", classes="form-empty"))
            return
        await self.mount_all(self._top_widgets(self.slot))
        # Kept, not queried: a query walks every widget of the form on each keystroke.
        self._fields = list(self.query(FormField))
        self._groups = list(self.query(FormGroup))
        self.show_errors(self._errors)
        if focus_path is not None:
            self.focus_path(focus_path)

    def _top_widgets(self, slot: Slot) -> list[Widget]:
        """The top-level widgets: one per argument, or one box per section holding them."""
        if slot.role != "object":
            return [build_widget(slot, self.args)]
        if not self.sections:
            return [build_widget(child, self.args) for child in slot.children]
        by_name = {child.path[-1]: child for child in slot.children}
        return [
            FormSection(section, *(build_widget(by_name[name], self.args) for name in section.args if name in by_name))
            for section in self.sections
        ]

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
        self.slot, self._key = slot, layout_key(slot)
        self._fields = list(self.query(FormField))
        self._groups = list(self.query(FormGroup))
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
        self.slot, self._key = slot, layout_key(slot)
        self._fields = list(self.query(FormField))
        self._groups = list(self.query(FormGroup))
        self.show_errors(self._errors)

    def focus_first_needed(self) -> bool:
        """Focus the first required field that has no value yet, or the first field."""
        needed = next((f for f in self._fields if f.slot.spec.required and f.is_empty), None)
        if needed is not None:
            needed.focus_input()
            return True
        return self.focus_path(())

    def focus_path(self, path: Path) -> bool:
        """Focus the input at ``path`` (or the first one under it)."""
        for field in self._fields:
            if field.slot.path[: len(path)] == path:
                field.focus_input()
                return True
        return False

    # -- edits from the widgets ---------------------------------------------------------------

    def _changed(self) -> None:
        self.post_message(self.Changed(self.args))

    @on(FormField.Edited)
    async def _edited(self, event: FormField.Edited) -> None:
        event.stop()
        if event.problem:
            self.problems[event.path] = event.problem
            self.show_errors(self._errors)
            return
        self.problems.pop(event.path, None)
        assert self.spec is not None
        self.args = edit(self.args, self.spec, event.path, event.value)
        if layout_key(layout(self.spec, self.args, self.choices)) != self._key:
            await self._rebuild()
        self._changed()

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
