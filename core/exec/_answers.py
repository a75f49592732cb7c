"""Turning an upstream's question (an elicitation schema) into fields a person fills in.

MCP elicitation asks for a flat object of simple values: strings (with an
optional format or enum), numbers, integers and booleans. The explorer and
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
    name: str
    title: str
    description: str
    type: str
    required: bool
    enum: tuple[Any, ...] | None = None
    default: Any = None


def answer_fields(schema: dict[str, Any]) -> list[AnswerField]:
    """The fields of a question, required ones first; anything not simple is asked as text."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return []
    required = set(schema.get("required") or [])
    fields = []
    for name, prop in properties.items():
        prop = prop if isinstance(prop, dict) else {}
        kind = prop.get("type") if prop.get("type") in SIMPLE_TYPES else "string"
        enum = prop.get("enum") or ([o.get("const") for o in prop["oneOf"] if isinstance(o, dict) and "const" in o] if isinstance(prop.get("oneOf"), list) else None)
        fields.append(AnswerField(
            name=str(name), title=str(prop.get("title") or name), description=str(prop.get("description") or ""),
            type=kind, required=name in required, enum=tuple(enum) if enum else None, default=prop.get("default"),
        ))
    fields.sort(key=lambda f: not f.required)
    return fields


def parse_answer(field: AnswerField, text: str) -> Any:
    """The typed value of ``text`` for ``field``; ``ValueError`` says what was expected."""
    text = text.strip()
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
    if field.enum and text not in [str(v) for v in field.enum]:
        raise ValueError(f"{field.title}: one of {', '.join(map(str, field.enum))}")
    return text


_KEPT_KEYWORDS = ("type", "enum", "format", "minLength", "maxLength", "minimum", "maximum", "oneOf")


def _plain_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Only the keywords elicitation allows: an upstream's ``$ref`` or ``$schema`` is never followed."""
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    return {
        "type": "object",
        "properties": {str(n): {k: v for k, v in p.items() if k in _KEPT_KEYWORDS} for n, p in properties.items() if isinstance(p, dict)},
        "required": [r for r in schema.get("required") or [] if isinstance(r, str)],
    }


def answer_problems(schema: dict[str, Any], answer: dict[str, Any]) -> list[str]:
    """Every way ``answer`` does not fit the question's schema (formats checked too)."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(_plain_schema(schema if isinstance(schema, dict) else {}), format_checker=Draft202012Validator.FORMAT_CHECKER)
    return [f"{'/'.join(map(str, e.absolute_path)) or 'answer'}: {e.message}" for e in validator.iter_errors(answer)]
