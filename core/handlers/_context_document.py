"""The context document a project gets when it is created without one (seed 001 §9.2).

Every project starts with a document that says what it is about, so that a
model opening the project later has its background in one read. When the
caller gives none, it is written from what the call carried: the project's
name, description and facets, the goals and tasks it starts with, and a brain
dump in its props, if any.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

BRAIN_DUMP_KEYS = ("braindump", "brain_dump")
BRAIN_DUMP_TEXT_KEYS = ("summary", "content", "text")
MAX_ITEMS = 20  # per section: the document is an overview, the entities hold the rest
MAX_BRAIN_DUMP_CHARS = 4000
MAX_TITLE_NAME_CHARS = 180


def context_document_spec(project: Mapping[str, Any], entities: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """``{title, content}`` (Markdown) for the project about to be created with these entities."""
    name = project["name"]
    lines = [f"# {name}", "", project.get("description") or "No description was given when the project was created."]
    facts = [f"{label} {project[field]}" for field, label in (
        ("type_key", "type"), ("facet_context", "context"), ("facet_scale", "scale"), ("facet_stage", "stage"))
        if project.get(field)]
    if facts:
        lines += ["", f"Classified as: {', '.join(facts)}."]
    for kind, heading in (("goal", "Goals"), ("task", "Tasks")):
        lines += _section(heading, [entity for entity in entities if entity["kind"] == kind])
    brain_dump = _brain_dump(project.get("props") or {})
    if brain_dump:
        lines += ["", "## From the brain dump", "", brain_dump]
    lines += ["", "_Written by opgate from what the project was created with; edit it as the project takes shape._"]
    return {"title": f"{name[:MAX_TITLE_NAME_CHARS]}: context", "content": "\n".join(lines)}


def _section(heading: str, entities: list[Mapping[str, Any]]) -> list[str]:
    if not entities:
        return []
    items = [f"- {e['name']}" + (f": {e['description']}" if e.get("description") else "") for e in entities[:MAX_ITEMS]]
    if len(entities) > MAX_ITEMS:
        items.append(f"- … and {len(entities) - MAX_ITEMS} more")
    return ["", f"## {heading}", "", *items]


def _brain_dump(props: Mapping[str, Any]) -> str:
    dump = next((props[key] for key in BRAIN_DUMP_KEYS if props.get(key)), None)
    if isinstance(dump, Mapping):
        text = next((dump[key] for key in BRAIN_DUMP_TEXT_KEYS if isinstance(dump.get(key), str)), "")
        source = f"(brain dump {dump['id']})" if isinstance(dump.get("id"), (str, int)) else ""
        dump = " ".join(part for part in (text, source) if part)
    if not isinstance(dump, str):
        return ""
    dump = dump.strip()
    return dump if len(dump) <= MAX_BRAIN_DUMP_CHARS else dump[:MAX_BRAIN_DUMP_CHARS].rstrip() + " …"
