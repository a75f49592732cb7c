"""JSON Schema -> form: field specs, layouts, values and error placement (no Textual here).

The explorer's form widgets are built from these; keeping the mapping pure
lets it be tested without a terminal and keeps it off the core's objects.
"""

from ._errors import PlacedErrors, place_errors, pointer_to_path, short_message
from ._layout import LEAF_KINDS, Slot, field_paths, layout, layout_key
from ._plan import FIRST_WEIGHT, Placement, first_batch, needs_value, next_batch, placements
from ._refs import lookup, resolve
from ._sections import SECTION_ORDER, Section, sections_for
from ._spec import KINDS, MISSING, FieldSpec, Variant, build_spec
from ._values import Path, edit, get_at, initial_args, initial_value, match_variant, new_item, parse_text, set_at, spec_at, to_text

__all__ = [
    "FIRST_WEIGHT",
    "KINDS",
    "LEAF_KINDS",
    "MISSING",
    "SECTION_ORDER",
    "FieldSpec",
    "Path",
    "PlacedErrors",
    "Placement",
    "Section",
    "Slot",
    "Variant",
    "build_spec",
    "edit",
    "field_paths",
    "first_batch",
    "get_at",
    "initial_args",
    "initial_value",
    "layout",
    "layout_key",
    "lookup",
    "match_variant",
    "needs_value",
    "new_item",
    "next_batch",
    "parse_text",
    "place_errors",
    "placements",
    "pointer_to_path",
    "resolve",
    "sections_for",
    "set_at",
    "short_message",
    "spec_at",
    "to_text",
]
