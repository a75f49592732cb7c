"""The order in which a big form's widgets are mounted: a screenful first, the rest in batches.

An op with 205 arguments makes about 1,000 widgets, and mounting them all
before the first frame took seconds. A form is mounted in the order it is
shown: the first batch holds a screenful and reaches the first required
argument that is still empty (the cursor goes there), and later batches
follow while the person reads or types. Each top-level argument is one
:class:`Placement`; its weight is the number of inputs it shows, so that a
nested object counts for what it costs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ._layout import Slot
from ._sections import Section
from ._spec import MISSING
from ._values import Path, get_at

# A field takes two or three rows: a screenful of a 24-row form, for a form not laid out yet.
FIRST_WEIGHT = 12
# The first batch stretches this far at most to reach the first required argument left empty.
FIRST_WEIGHT_CAP = 64
BATCH_WEIGHT = 12


@dataclass(frozen=True)
class Placement:
    """One top-level widget of the form: the slot it shows and the section that holds it (``None``: the form itself)."""

    slot: Slot
    section: str | None = None

    @property
    def weight(self) -> int:
        return max(1, sum(1 for s in self.slot.walk() if s.role == "leaf"))

    def leaves(self) -> Iterator[Slot]:
        return (s for s in self.slot.walk() if s.role == "leaf")


def placements(slot: Slot, sections: tuple[Section, ...] | None) -> list[Placement]:
    """The form's top-level widgets in the order they are shown."""
    if slot.role != "object":
        return [Placement(slot)]
    if not sections:
        return [Placement(child) for child in slot.children]
    by_name = {child.path[-1]: child for child in slot.children}
    return [Placement(by_name[name], section.name) for section in sections for name in section.args if name in by_name]


def needs_value(slot: Slot, args: Any) -> bool:
    """A required input with nothing in it yet."""
    return slot.spec.required and get_at(args, slot.path) is MISSING


def first_batch(plan: list[Placement], args: Any, first_weight: int = FIRST_WEIGHT) -> int:
    """How many placements to mount before the first frame: ``first_weight`` inputs, through the first one still needed."""
    weight = 0
    needed_seen = False
    for index, placement in enumerate(plan):
        needed_seen = needed_seen or any(needs_value(s, args) for s in placement.leaves())
        weight += placement.weight
        if weight >= first_weight and (needed_seen or weight >= FIRST_WEIGHT_CAP or not _needs_later(plan[index + 1:], args)):
            return index + 1
    return len(plan)


def _needs_later(rest: Iterable[Placement], args: Any) -> bool:
    return any(needs_value(s, args) for p in rest for s in p.leaves())


def next_batch(pending: list[Placement], through: Path | None = None) -> int:
    """How many pending placements the next batch takes: ``BATCH_WEIGHT`` inputs, or up to the one holding ``through``."""
    if through is not None:
        for index, placement in enumerate(pending):
            if any(s.path[: len(through)] == through for s in placement.slot.walk()):
                return index + 1
    weight = 0
    for index, placement in enumerate(pending):
        weight += placement.weight
        if weight >= BATCH_WEIGHT:
            return index + 1
    return len(pending)
