"""An HTTP op's arguments grouped by where they go in the request: path, query, header and body.

The OpenAPI catalogue records each argument's location on the op
(``OpRecord.arguments_in``); form fields and files are parts of the body.
Within a section the required arguments come first, otherwise in the
schema's order. Ops that are not HTTP ops have no sections: one plain form.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._spec import FieldSpec

SECTION_ORDER = ("path", "query", "header", "body")
# Where an argument goes -> the section that shows it.
_SECTION_OF = {"path": "path", "query": "query", "header": "header", "body": "body", "form": "body", "file": "body"}
OTHER = "other"


@dataclass(frozen=True)
class Section:
    """One titled part of the form: its name (``path``, ``query``...) and the argument names it holds, in order."""

    name: str
    args: tuple[str, ...]


def sections_for(spec: FieldSpec, arguments_in: dict[str, str] | None) -> tuple[Section, ...] | None:
    """The sections of the form for ``spec``, or ``None`` when the op says nothing of locations."""
    if not arguments_in or spec.kind != "object":
        return None
    grouped: dict[str, list[FieldSpec]] = {}
    for field in spec.fields:
        name = _SECTION_OF.get(arguments_in.get(field.name, ""), OTHER)
        grouped.setdefault(name, []).append(field)
    order = [*SECTION_ORDER, OTHER]
    return tuple(
        Section(name, tuple(f.name for f in sorted(grouped[name], key=lambda f: not f.required)))
        for name in order if name in grouped
    )
