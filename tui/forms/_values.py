"""Values for a form: defaults, text <-> typed values, and edits at a path.

Arguments are plain JSON-like data (dicts, lists, scalars). A path is a tuple
of keys and list indices from the top of the arguments: ``("entities", 0,
"temp_id")``. Edits return a new value and never change the one given.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from opgate.core import safe_json

from ._spec import MISSING, FieldSpec

Path = tuple[str | int, ...]

_JSON_TYPES = {"string": str, "boolean": bool, "object": dict, "array": list}


# -- defaults -------------------------------------------------------------------------


def initial_value(spec: FieldSpec) -> Any:
    """What the form starts with: the default, required containers, else nothing."""
    if spec.has_default:
        return copy.deepcopy(spec.default)
    if spec.kind == "object" and spec.required:
        return initial_object(spec)
    if spec.kind == "array" and spec.required:
        return []
    if spec.kind == "variant" and spec.required and spec.variants:
        return initial_value(spec.variants[0].spec)
    return MISSING


def initial_object(spec: FieldSpec) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for child in spec.fields:
        value = initial_value(child)
        if value is not MISSING:
            out[child.name] = value
    return out


def initial_args(spec: FieldSpec) -> dict[str, Any]:
    """Starting arguments for an op: required containers and every default filled in."""
    return initial_object(spec) if spec.kind == "object" else {}


def new_item(spec: FieldSpec) -> Any:
    """A fresh array item (an item is never absent, so every kind has a blank value)."""
    if spec.has_default:
        return copy.deepcopy(spec.default)
    blanks: dict[str, Any] = {"string": "", "integer": 0, "number": 0, "boolean": False, "array": [], "json": None}
    if spec.kind == "object":
        return initial_object(spec)
    if spec.kind == "enum":
        return spec.enum[0] if spec.enum else None
    if spec.kind == "variant":
        return new_item(spec.variants[0].spec) if spec.variants else None
    return blanks.get(spec.kind)


# -- text <-> values --------------------------------------------------------------------


def _quoted(text: str) -> str:
    return repr(text if len(text) <= 30 else text[:29] + "…")


def parse_text(spec: FieldSpec, text: str, *, in_array: bool = False) -> tuple[Any, str | None]:
    """The value typed into a text input, or ``(MISSING, message)`` when it cannot be one.

    Empty text leaves the argument out (inside an array, a string item stays
    ``""``); for a nullable field, ``null`` means JSON null.
    """
    stripped = text.strip()
    if spec.nullable and stripped == "null":
        return None, None
    if spec.kind == "string":
        return (text if text or in_array else MISSING), None
    if not stripped:
        return (None if in_array else MISSING), None
    if spec.kind == "integer":
        try:
            return int(stripped), None
        except ValueError:
            return MISSING, f"{_quoted(stripped)} is not a whole number: type digits only, such as 3 or -2"
    if spec.kind == "number":
        try:
            number = float(stripped)
        except ValueError:
            return MISSING, f"{_quoted(stripped)} is not a number: type digits, such as 3 or 2.5"
        return (int(number) if number.is_integer() and "." not in stripped and "e" not in stripped.lower() else number), None
    if spec.kind == "boolean":
        if stripped.lower() in ("true", "false"):
            return stripped.lower() == "true", None
        return MISSING, f"{_quoted(stripped)} is not true or false"
    try:
        return safe_json.loads(stripped, what="the value", check_text=False), None
    except safe_json.JsonInputError as exc:
        return MISSING, exc.message.removeprefix("the value: ")


def to_text(spec: FieldSpec, value: Any) -> str:
    """The text an input shows for ``value``."""
    if value is MISSING:
        return ""
    if value is None:
        return "null"
    if spec.kind == "string" and isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)) and spec.kind in ("integer", "number"):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


# -- paths ------------------------------------------------------------------------------


def get_at(value: Any, path: Path) -> Any:
    for part in path:
        if isinstance(part, int) and isinstance(value, list) and 0 <= part < len(value):
            value = value[part]
        elif isinstance(part, str) and isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return MISSING
    return value


def _set(node: Any, path: Path, new: Any) -> Any:
    head, rest = path[0], path[1:]
    if isinstance(head, int):
        items = list(node) if isinstance(node, list) else []
        while len(items) <= head:
            items.append(None)
        if rest:
            items[head] = _set(items[head], rest, new)
        elif new is MISSING:
            del items[head]
        else:
            items[head] = new
        return items
    mapping = dict(node) if isinstance(node, dict) else {}
    if rest:
        mapping[head] = _set(mapping.get(head), rest, new)
    elif new is MISSING:
        mapping.pop(head, None)
    else:
        mapping[head] = new
    return mapping


def set_at(value: Any, path: Path, new: Any) -> Any:
    """``value`` with ``new`` at ``path`` (``MISSING`` removes it); containers are created on the way."""
    if not path:
        return copy.deepcopy(new)
    return _set(copy.deepcopy(value), path, copy.deepcopy(new))


def spec_at(spec: FieldSpec, args: Any, path: Path) -> FieldSpec | None:
    """The spec that edits ``path`` (variants are followed through the value they hold)."""
    node: FieldSpec | None = spec
    walked: Path = ()
    for part in path:
        node = _through_variant(node, get_at(args, walked)) if node else None
        if node is None:
            return None
        node = node.items if isinstance(part, int) else node.field(str(part))
        walked += (part,)
    return node


def _through_variant(spec: FieldSpec, value: Any) -> FieldSpec:
    if spec.kind != "variant" or not spec.variants:
        return spec
    return spec.variants[match_variant(spec, value)].spec


def edit(args: dict[str, Any], root: FieldSpec, path: Path, new: Any) -> dict[str, Any]:
    """Set ``path`` to ``new``; optional objects left empty by a removal are removed too."""
    result = set_at(args, path, new)
    if new is MISSING:
        parent = path[:-1]
        while parent and not isinstance(parent[-1], int):
            spec = spec_at(root, result, parent)
            if spec is None or spec.required or spec.kind != "object" or get_at(result, parent) != {}:
                break
            result = set_at(result, parent, MISSING)
            parent = parent[:-1]
    return result if isinstance(result, dict) else {}


# -- variants ---------------------------------------------------------------------------


def _fit(spec: FieldSpec, value: Any) -> float:
    if spec.kind == "enum":
        return 3.0 if value in spec.enum else 0.0
    if spec.kind == "json":
        return 0.5
    if spec.kind == "object":
        if not isinstance(value, dict):
            return 0.0
        known = {f.name for f in spec.fields}
        needed = {f.name for f in spec.fields if f.required}
        return 1.0 + len(known & set(value)) - len(set(value) - known) + (1.0 if needed <= set(value) else 0.0)
    if spec.kind in ("integer", "number"):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and (spec.kind == "number" or float(value).is_integer())
        return 1.0 if ok else 0.0
    expected = _JSON_TYPES.get(spec.kind)
    return 1.0 if expected is not None and isinstance(value, expected) else 0.0


def match_variant(spec: FieldSpec, value: Any, chosen: int | None = None) -> int:
    """The alternative ``value`` fits best; ``chosen`` (the person's pick) wins ties."""
    if value is MISSING or not spec.variants:
        return chosen if chosen is not None and 0 <= chosen < len(spec.variants) else 0
    scores = [_fit(v.spec, value) for v in spec.variants]
    best = max(scores)
    if chosen is not None and 0 <= chosen < len(scores) and scores[chosen] == best:
        return chosen
    return scores.index(best)
