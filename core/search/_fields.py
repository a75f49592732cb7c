"""What of an op is searchable, split into fields by the role their words play.

A field says what the op *does* (its name and op path, summary, the first
sentence of its description, the search phrases its catalogue gives), what it
*takes* (argument names and descriptions, the HTTP path), or how to *use* it
well (warnings, policy, "confirm first", "marking done is usually what they
want"). Search weighs the first high, the second in the middle, and leaves
guidance out: a description that says "don't use this to mark work done" must
not match "mark done". Policy, notes and examples are never indexed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from .._record import record
from ..registry._record import OpRecord

# Nested schemas deeper than this add mostly noise (and cost build time).
_MAX_SCHEMA_DEPTH = 4
_NESTED_KEYS = ("items", "additionalProperties")
_ALTERNATIVE_KEYS = ("anyOf", "oneOf", "allOf")
# Patterns only an index build uses: compiled (and cached by re) on first use, not when a cached index is read.
_SENTENCE_END = r"(?<=[.!?])\s+(?=[A-Z\"'(`])"
# A sentence that tells the reader how or when (not) to use the op.
_GUIDANCE = (
    r"\b(?:confirm|don'?t|do not|never|instead|usually|rather than|avoid|should|must not|warning|caution|"
    r"policy|prefer|only when|only if|first(?:,|:| so)|make sure|be careful|use (?:it|this|them)\b|for instance|not for)\b"
)  # case-insensitive
_PATH_PARAMETER = r"\{[^}]*\}"
# A quoted example in a summary or description ('e.g. "Engineering / API Spec"')
# shows a value, not what the op does: it is left out like the examples are.
# Only quotes introduced as examples: other quotes may be names or JSON.
_QUOTED_EXAMPLE = r"[,;]?\s*\(?\b(?:e\.g\.|for example|such as)\s*[\"\u201c][^\"\u201d]{1,120}[\"\u201d]\)?"


@record(frozen=True)
class OpText:
    """The text of one op, field by field (``guidance`` is kept for reference, not indexed)."""

    name: str
    summary: str
    description: str
    details: str
    arguments: tuple[str, ...]
    tags: str
    phrases: str = ""
    guidance: str = ""
    upstream: str = ""


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


def split_description(description: str) -> tuple[str, str, str]:
    """(what it does, further facts, guidance): the first sentence, the other plain sentences, the advice."""
    sentences = [s.strip() for s in re.split(_SENTENCE_END, description.strip()) if s.strip()]
    if not sentences:
        return "", "", ""
    does, details, guidance = [sentences[0]], [], []
    for sentence in sentences[1:]:
        (guidance if re.search(_GUIDANCE, sentence, re.IGNORECASE) else details).append(sentence)
    return " ".join(does), " ".join(details), " ".join(guidance)


def upstream_text(record: OpRecord) -> str:
    """Words an upstream catalogue gives besides the description: HTTP method and path, MCP title."""
    pieces = []
    if record.http:
        pieces.append(re.sub(_PATH_PARAMETER, " ", record.http))
    if record.title:
        pieces.append(record.title)
    annotations = record.annotations or {}
    if isinstance(annotations.get("title"), str) and annotations["title"] != record.title:
        pieces.append(annotations["title"])
    return " ".join(pieces)


def op_text(record: OpRecord) -> OpText:
    """The searchable text of a record. The op path and tool name both go in the name field."""
    description = record.description.strip()
    summary = record.summary.strip()
    if description.startswith(summary.rstrip("…")):
        # The summary is the description's first sentence: counting it twice
        # would only favour ops whose description is that one sentence.
        summary = ""
    does, details, guidance = split_description(re.sub(_QUOTED_EXAMPLE, "", description))
    summary = re.sub(_QUOTED_EXAMPLE, "", summary)
    name = " ".join(filter(None, (record.op, record.tool_name)))
    return OpText(
        name=name,
        summary=summary,
        description=does,
        details=details,
        arguments=argument_text(record.parameters),
        tags=" ".join(record.metadata.tags),
        phrases=" ; ".join(record.metadata.search_phrases),
        guidance=guidance,
        upstream=upstream_text(record),
    )
