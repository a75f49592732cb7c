"""What of an op is searchable, split into fields that weigh differently.

The name says most in the fewest words, the summary next; argument names and
descriptions add the nouns a request mentions ("to", "body", "media url")
even when an op has no description at all, which many OpenAPI ops lack.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..registry._record import OpRecord

# Nested schemas deeper than this add mostly noise (and cost build time).
_MAX_SCHEMA_DEPTH = 4
_NESTED_KEYS = ("items", "additionalProperties")
_ALTERNATIVE_KEYS = ("anyOf", "oneOf", "allOf")


@dataclass(frozen=True)
class OpText:
    """The text of one op, field by field."""

    name: str
    summary: str
    description: str
    arguments: tuple[str, ...]
    tags: str


def _schema_text(schema: Any, depth: int) -> Iterator[str]:
    if not isinstance(schema, dict) or depth > _MAX_SCHEMA_DEPTH:
        return
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for name, sub in properties.items():
            yield str(name)
            if isinstance(sub, dict):
                if isinstance(sub.get("description"), str):
                    yield sub["description"]
                yield from _schema_text(sub, depth + 1)
    for key in _NESTED_KEYS:
        yield from _schema_text(schema.get(key), depth + 1)
    for key in _ALTERNATIVE_KEYS:
        alternatives = schema.get(key)
        if isinstance(alternatives, list):
            for alternative in alternatives:
                yield from _schema_text(alternative, depth + 1)


def argument_text(parameters: dict[str, Any]) -> tuple[str, ...]:
    """Argument names and descriptions of a JSON Schema, nested properties included, one piece each."""
    return tuple(_schema_text(parameters, 0))


def op_text(record: OpRecord) -> OpText:
    """The searchable text of a record. The op path and tool name both go in the name field."""
    description = record.description.strip()
    summary = record.summary.strip()
    if description.startswith(summary.rstrip("…")):
        # The summary is the description's first sentence: counting it twice
        # would only favour ops whose description is that one sentence.
        summary = ""
    name = " ".join(filter(None, (record.op, record.tool_name)))
    return OpText(
        name=name,
        summary=summary,
        description=description,
        arguments=argument_text(record.parameters),
        tags=" ".join(record.metadata.tags),
    )
