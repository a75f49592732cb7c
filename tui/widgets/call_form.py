"""The form for an op's arguments, generated from its JSON Schema (see ``tui.forms``).

A big form is mounted a screenful first and the rest in batches (``tui.forms._plan``, ``_form_batches``):
the values live in :attr:`CallForm.args` whatever is mounted, so a call made
from a half-mounted form holds every argument.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from textual.containers import VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from ..forms import FieldSpec, Path, PlacedErrors, Placement, Section, Slot, first_batch, get_at, layout, layout_key, needs_value, placements
from ._form_batches import TYPING_PAUSE, FormBatches
from ._form_edits import FormEdits
from .form_build import more_text, top_widgets
from .form_field import FormField
from .form_group import FormGroup

# The first batch holds at least this many inputs (every built-in op fits), else a screenful at two rows a field.
MIN_FIRST_WEIGHT = 16


class CallForm(VerticalScroll, FormEdits, FormBatches):
    """Edits a whole argument object. The parent calls :meth:`load`, :meth:`set_args` and :meth:`show_errors`.

    Its edits are answered in :class:`FormEdits`, the batches after the first mounted in :class:`FormBatches`.
    """

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

    @dataclass
    class NamesWanted(Message):
        """The form shows ``ids`` it has no names for (the arguments hold them): the parent may look them up."""

        args: dict[str, Any]
        ids: frozenset[str]

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
        # {id: name}, from the parent: each id field shows its entity's name beside the id.
        self.names: Mapping[str, str] = {}

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
        self._name_fields(self._fields)

    def show_names(self, names: Mapping[str, str]) -> None:
        """The names of entities (``{id: name}``) the parent knows: the id fields show them."""
        self.names = names
        self._name_fields(self._fields)

    def _name_fields(self, fields: Iterable[FormField]) -> None:
        """Show the names the form knows beside the ids its fields hold; ask the parent for the others."""
        unknown = set()
        for field in fields:
            field.show_name(self.names)
            if field.shown_id is not None and field.shown_id not in self.names:
                unknown.add(field.shown_id)
        if unknown:
            self.post_message(self.NamesWanted(self.args, frozenset(unknown)))

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
        self._name_fields(self._fields)

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

    # -- focus ------------------------------------------------------------------------------

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


__all__ = ["TYPING_PAUSE", "CallForm"]
