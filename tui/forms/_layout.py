"""The layout of a form for given arguments: which input sits at which path.

Arrays have one slot per item and variants one slot for the chosen
alternative, so the layout depends on the value. Its :func:`layout_key`
changes only when the structure does (an item added, another variant picked):
a form rebuilds its widgets then, and otherwise updates them in place.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ._spec import FieldSpec
from ._values import Path, get_at, match_variant

LEAF_KINDS = ("string", "integer", "number", "boolean", "enum", "json")


@dataclass(frozen=True)
class Slot:
    """One place in the form: a leaf input, an object's fields, an array's items or a variant's pick."""

    path: Path
    spec: FieldSpec
    children: tuple[Slot, ...] = ()
    variant: int | None = None
    in_array: bool = False

    @property
    def role(self) -> str:
        if self.spec.kind in ("object", "array", "variant"):
            return self.spec.kind
        return "leaf"

    @property
    def label(self) -> str:
        last = self.path[-1] if self.path else "args"
        return f"#{last + 1}" if isinstance(last, int) else str(last)

    def walk(self) -> Iterator[Slot]:
        yield self
        for child in self.children:
            yield from child.walk()


def layout(spec: FieldSpec, args: Any, choices: dict[Path, int] | None = None, path: Path = (), in_array: bool = False) -> Slot:
    """The slot tree for ``args``; ``choices`` holds the variant each path was set to by hand."""
    choices = choices or {}
    if spec.kind == "object":
        # Required fields first (then the schema's order): what must be filled is what the person sees first.
        fields = sorted(spec.fields, key=lambda f: not f.required)
        children = tuple(layout(f, args, choices, path + (f.name,)) for f in fields)
        return Slot(path, spec, children, in_array=in_array)
    if spec.kind == "array" and spec.items is not None:
        items = get_at(args, path)
        count = len(items) if isinstance(items, list) else 0
        children = tuple(layout(spec.items, args, choices, path + (i,), in_array=True) for i in range(count))
        return Slot(path, spec, children, in_array=in_array)
    if spec.kind == "variant" and spec.variants:
        index = match_variant(spec, get_at(args, path), choices.get(path))
        chosen = spec.variants[index].spec
        return Slot(path, spec, (layout(chosen, args, choices, path, in_array),), variant=index, in_array=in_array)
    return Slot(path, spec, in_array=in_array)


def layout_key(slot: Slot) -> tuple[Any, ...]:
    """Equal for two layouts with the same widgets in the same places."""
    return tuple((s.path, s.spec.kind, s.variant, len(s.children)) for s in slot.walk())


def field_paths(slot: Slot) -> set[Path]:
    """Every path that shows an input or a group (where an error can be placed)."""
    return {s.path for s in slot.walk()}
