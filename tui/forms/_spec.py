"""JSON Schema -> field specs: what kind of input each argument gets, before any widget exists.

A :class:`FieldSpec` is shaped like the schema, not like a value: an array's
``items`` is one spec shared by every item; paths are given when a form is
laid out. Kinds:

``string``, ``integer``, ``number``, ``boolean``
    one input each (formats such as ``uuid`` and ``date-time`` stay strings)
``enum``
    a fixed list of values (``enum`` or ``const``)
``object``
    named ``fields``
``array``
    a list of ``items``
``variant``
    ``oneOf`` / ``anyOf`` alternatives, one ``Variant`` each
``json``
    anything else (free objects, mixed types, unresolvable refs): raw JSON text
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ._refs import resolve

KINDS = ("string", "integer", "number", "boolean", "enum", "object", "array", "variant", "json")
# Deep enough for any real catalogue; recursive schemas stop here and fall back to JSON text.
MAX_DEPTH = 8
_SCALARS = {"string", "integer", "number", "boolean"}
_SHAPE_KEYS = ("type", "properties", "enum", "const", "items", "$ref")


class _Missing:
    """No value at all: the argument is left out of the call (distinct from ``null``)."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()


@dataclass(frozen=True)
class Variant:
    """One alternative of a ``oneOf`` / ``anyOf``."""

    label: str
    spec: FieldSpec


@dataclass(frozen=True)
class FieldSpec:
    """How one argument (or nested value) is edited."""

    name: str
    kind: str
    schema: dict[str, Any] = field(repr=False, compare=False)
    required: bool = False
    nullable: bool = False
    default: Any = MISSING
    enum: tuple[Any, ...] = ()
    format: str | None = None
    description: str = ""
    type_label: str = ""
    fields: tuple[FieldSpec, ...] = ()
    items: FieldSpec | None = None
    variants: tuple[Variant, ...] = ()

    @property
    def has_default(self) -> bool:
        return self.default is not MISSING

    @property
    def picks_id(self) -> bool:
        """Whether the store can offer values (``project_id``, ``new_parent_id``, ``id``)."""
        return self.kind == "string" and (self.name.endswith("_id") or self.name == "id")

    def field(self, name: str) -> FieldSpec | None:
        return next((f for f in self.fields if f.name == name), None)


def _types(schema: dict[str, Any]) -> list[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return [kind]
    return [k for k in kind if isinstance(k, str)] if isinstance(kind, list) else []


def _is_null(branch: Any, root: dict[str, Any]) -> bool:
    resolved, _ = resolve(branch, root)
    return _types(resolved) == ["null"] or resolved.get("const", 0) is None


def _shaped(branches: list[Any], root: dict[str, Any]) -> bool:
    """Alternatives that say what a value looks like, not just which names are required."""
    return any(any(k in resolve(b, root)[0] for k in _SHAPE_KEYS) for b in branches if isinstance(b, dict))


def _merge(base: dict[str, Any], branch: dict[str, Any]) -> dict[str, Any]:
    merged = {**base, **branch}
    if isinstance(base.get("properties"), dict) and isinstance(branch.get("properties"), dict):
        merged["properties"] = {**base["properties"], **branch["properties"]}
    return merged


def _label(kind: str, schema: dict[str, Any], spec_items: FieldSpec | None, nullable: bool) -> str:
    if kind == "array":
        text = f"array<{spec_items.type_label}>" if spec_items else "array"
    elif kind == "string" and isinstance(schema.get("format"), str):
        text = schema["format"]
    else:
        text = kind
    return f"{text}|null" if nullable else text


def _variant_label(index: int, spec: FieldSpec) -> str:
    title = spec.schema.get("title")
    if isinstance(title, str) and title:
        return title
    if spec.kind == "object":
        names = [f.name for f in spec.fields if f.required] or [f.name for f in spec.fields[:2]]
        return f"object ({', '.join(names)})" if names else "object"
    return spec.type_label or f"variant {index + 1}"


def build_spec(schema: Any, root: dict[str, Any] | None = None, *, name: str = "args", required: bool = True,
               seen: frozenset[str] = frozenset(), depth: int = 0) -> FieldSpec:
    """The field spec for ``schema`` (``root`` holds its ``$defs``; it defaults to ``schema``)."""
    root = root if root is not None else (schema if isinstance(schema, dict) else {})
    resolved, seen = resolve(schema, root, seen)
    common = {"name": name, "schema": resolved, "required": required,
              "description": str(resolved.get("description") or resolved.get("title") or "").strip(),
              "default": resolved.get("default", MISSING)}
    if "$ref" in resolved or depth > MAX_DEPTH:
        return FieldSpec(kind="json", type_label="json", **common)
    for combiner in ("oneOf", "anyOf"):
        branches = resolved.get(combiner)
        if isinstance(branches, list) and branches and _shaped(branches, root):
            return _combined(resolved, combiner, branches, root, common, seen, depth)
    return _plain(resolved, root, common, seen, depth, nullable=False)


def _combined(resolved: dict[str, Any], combiner: str, branches: list[Any], root: dict[str, Any],
              common: dict[str, Any], seen: frozenset[str], depth: int) -> FieldSpec:
    base = {k: v for k, v in resolved.items() if k != combiner}
    shared = {k: v for k, v in base.items() if k not in ("description", "title", "default")}
    others = [b for b in branches if not _is_null(b, root)]
    nullable = len(others) < len(branches)
    if len(others) == 1:
        branch, _ = resolve(others[0], root, seen)
        inner = build_spec(_merge(base, branch), root, name=common["name"], required=common["required"], seen=seen, depth=depth)
        return _with_null(inner) if nullable else inner
    variants = []
    for index, branch in enumerate(others):
        spec = build_spec(_merge(shared, resolve(branch, root, seen)[0]), root, name=common["name"], required=True, seen=seen, depth=depth + 1)
        variants.append(Variant(_variant_label(index, spec), spec))
    label = " | ".join(v.spec.type_label for v in variants)
    return FieldSpec(kind="variant", nullable=nullable, variants=tuple(variants), type_label=label, **common)


def _with_null(spec: FieldSpec) -> FieldSpec:
    label = spec.type_label if spec.type_label.endswith("|null") else f"{spec.type_label}|null"
    return replace(spec, nullable=True, type_label=label)


def _plain(resolved: dict[str, Any], root: dict[str, Any], common: dict[str, Any], seen: frozenset[str], depth: int, *, nullable: bool) -> FieldSpec:
    types = _types(resolved)
    nullable = nullable or "null" in types
    types = [t for t in types if t != "null"]
    if isinstance(resolved.get("enum"), list) or "const" in resolved:
        values = resolved["enum"] if isinstance(resolved.get("enum"), list) else [resolved["const"]]
        nullable = nullable or None in values
        label = "enum|null" if nullable else "enum"
        return FieldSpec(kind="enum", nullable=nullable, enum=tuple(v for v in values if v is not None), type_label=label, **common)
    if not types:
        types = ["object"] if isinstance(resolved.get("properties"), dict) else ["array"] if isinstance(resolved.get("items"), dict) else []
    if len(types) != 1:
        return FieldSpec(kind="json", nullable=nullable, type_label="|".join(types) or "json", **common)
    kind = types[0]
    if kind == "object":
        properties = resolved.get("properties")
        if not isinstance(properties, dict) or not properties:
            return FieldSpec(kind="json", nullable=nullable, type_label="object", **common)
        needed = set(resolved.get("required") or [])
        fields = tuple(build_spec(sub, root, name=key, required=key in needed, seen=seen, depth=depth + 1) for key, sub in properties.items())
        return FieldSpec(kind="object", nullable=nullable, fields=fields, type_label=_label("object", resolved, None, nullable), **common)
    if kind == "array":
        items_schema = resolved.get("items")
        if not isinstance(items_schema, dict):
            return FieldSpec(kind="json", nullable=nullable, type_label="array", **common)
        items = build_spec(items_schema, root, name="item", required=True, seen=seen, depth=depth + 1)
        return FieldSpec(kind="array", nullable=nullable, items=items, type_label=_label("array", resolved, items, nullable), **common)
    if kind in _SCALARS:
        fmt = resolved.get("format") if isinstance(resolved.get("format"), str) else None
        return FieldSpec(kind=kind, nullable=nullable, format=fmt, type_label=_label(kind, resolved, None, nullable), **common)
    return FieldSpec(kind="json", nullable=nullable, type_label=kind, **common)
