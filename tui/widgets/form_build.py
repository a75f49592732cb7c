"""Widgets made from a form's layout: a field per leaf, a group per object or array, a box per section."""

from __future__ import annotations

from typing import Any

from textual.widget import Widget

from ..forms import Placement, Section, Slot, get_at
from .form_field import FormField
from .form_group import FormGroup
from .form_section import FormSection


def build_widget(slot: Slot, args: Any) -> Widget:
    """The widget for ``slot``: a field for a leaf, a group around the widgets of its children."""
    if slot.role == "leaf":
        return FormField(slot, get_at(args, slot.path))
    return FormGroup(slot, *(build_widget(child, args) for child in slot.children))


def top_widgets(batch: list[Placement], args: Any, sections: tuple[Section, ...] | None) -> list[Widget]:
    """The top-level widgets of a batch: one per argument, or one box per section holding those of this batch."""
    if not sections:
        return [build_widget(p.slot, args) for p in batch]
    return [FormSection(section, *(build_widget(p.slot, args) for p in batch if p.section == section.name)) for section in sections]


def more_text(pending: list[Placement]) -> str:
    """The line standing in for the arguments not mounted yet."""
    left = sum(p.weight for p in pending)
    return f"… {left} more field{'s' if left != 1 else ''} on the way (Tab here to show the next ones now)"
