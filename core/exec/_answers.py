"""Turning an upstream's question (an elicitation schema) into fields a person fills in.

MCP elicitation asks for a flat object of simple values: strings (with an
optional format or enum), numbers, integers, booleans, and arrays of enum
values (a multiple choice). The explorer and
the REPL both build their prompts from :func:`answer_fields`, parse typed
text with :func:`parse_answer`, and check the whole answer with
:func:`answer_problems` before it goes back upstream.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SIMPLE_TYPES = ("string", "number", "integer", "boolean")
_TRUE = ("y", "yes", "true", "1", "on")
_FALSE = ("n", "no", "false", "0", "off")


@dataclass(frozen=True)
class AnswerField:
    """One value to ask for. ``type`` is ``array`` for a multiple choice among ``enum``;
    ``labels`` are the options' titles where the schema gives them (same order as ``enum``)."""

    name: str
    title: str
    description: str
    type: str
    required: bool
    enum: tuple[Any, ...] | None = None
    default: Any = None
    labels: tuple[str, ...] | None = None


def _choices(prop: dict[str, Any]) -> tuple[tuple[Any, ...] | None, tuple[str, ...] | None]:
    """The values a property may take, and their titles: ``enum`` (+ ``enumNames``), or ``oneOf``/``anyOf`` of ``const``."""
    if isinstance(prop.get("enum"), list) and prop["enum"]:
        names = prop.get("enumNames")
        labels = tuple(map(str, names)) if isinstance(names, list) and len(names) == len(prop["enum"]) else None
        return tuple(prop["enum"]), labels
    for key in ("oneOf", "anyOf"):
        options = [o for o in prop.get(key) or [] if isinstance(o, dict) and "const" in o]
        if options:
            return tuple(o["const"] for o in options), tuple(str(o.get("title", o["const"])) for o in options)
    return None, None


def answer_fields(schema: dict[str, Any]) -> list[AnswerField]:
    """The fields of a question, required ones first; anything not simple is asked as text."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return []
    required = set(schema.get("required") or [])
    fields = []
    for name, prop in properties.items():
        prop = prop if isinstance(prop, dict) else {}
        if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
            kind = "array"
            enum, labels = _choices(prop["items"])
        else:
            kind = prop.get("type") if prop.get("type") in SIMPLE_TYPES else "string"
            enum, labels = _choices(prop)
        fields.append(AnswerField(
            name=str(name), title=str(prop.get("title") or name), description=str(prop.get("description") or ""),
            type=kind, required=name in required, enum=enum, default=prop.get("default"), labels=labels,
        ))
    fields.sort(key=lambda f: not f.required)
    return fields


def parse_answer(field: AnswerField, text: str) -> Any:
    """The typed value of ``text`` for ``field``; ``ValueError`` says what was expected."""
    text = text.strip()
    if field.type == "array":
        return [_one_choice(field, part.strip()) for part in text.split(",") if part.strip()]
    if field.type == "boolean":
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise ValueError(f"{field.title}: answer yes or no")
    if field.type in ("number", "integer"):
        try:
            value = int(text) if field.type == "integer" else float(text)
        except ValueError:
            raise ValueError(f"{field.title}: expected {'a whole number' if field.type == 'integer' else 'a number'}") from None
        return value
    return _one_choice(field, text) if field.enum else text


def _one_choice(field: AnswerField, text: str) -> Any:
    """An option by its value or its title."""
    values = list(field.enum or ())
    if not values:
        return text
    for value in values:
        if str(value) == text:
            return value
    for value, label in zip(values, field.labels or ()):
        if label.lower() == text.lower():
            return value
    shown = ", ".join(f"{v} ({label})" if label != str(v) else str(v) for v, label in zip(values, field.labels or map(str, values)))
    raise ValueError(f"{field.title}: one of {shown}")


_KEPT_KEYWORDS = ("type", "enum", "const", "format", "minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems", "uniqueItems")


def _plain(prop: dict[str, Any]) -> dict[str, Any]:
    """Only the keywords elicitation allows: an upstream's ``$ref`` or ``$schema`` is never followed."""
    plain = {k: v for k, v in prop.items() if k in _KEPT_KEYWORDS}
    for key in ("oneOf", "anyOf"):
        if isinstance(prop.get(key), list):
            plain[key] = [_plain(o) for o in prop[key] if isinstance(o, dict)]
    if isinstance(prop.get("items"), dict):
        plain["items"] = _plain(prop["items"])
    return plain


def _plain_schema(schema: dict[str, Any]) -> dict[str, Any]:
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    return {
        "type": "object",
        "properties": {str(n): _plain(p) for n, p in properties.items() if isinstance(p, dict)},
        "required": [r for r in schema.get("required") or [] if isinstance(r, str)],
    }


def answer_problems(schema: dict[str, Any], answer: dict[str, Any]) -> list[str]:
    """Every way ``answer`` does not fit the question's schema (formats checked too)."""
    from .._jsonschema import Draft202012Validator

    validator = Draft202012Validator(_plain_schema(schema if isinstance(schema, dict) else {}), format_checker=Draft202012Validator.FORMAT_CHECKER)
    return [f"{'/'.join(map(str, e.absolute_path)) or 'answer'}: {e.message}" for e in validator.iter_errors(answer)]
