"""Schema -> field specs, value assembly and error placement, without Textual."""

from __future__ import annotations

import pytest

from opgate.core import Gateway
from opgate.tui.forms import (
    MISSING,
    build_spec,
    edit,
    field_paths,
    get_at,
    initial_args,
    layout,
    layout_key,
    match_variant,
    new_item,
    parse_text,
    place_errors,
    pointer_to_path,
    set_at,
    to_text,
)

NESTED = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "when": {"type": "string", "format": "date-time"},
        "count": {"type": "integer", "default": 3},
        "ratio": {"type": ["number", "null"]},
        "flag": {"type": "boolean"},
        "mode": {"type": "string", "enum": ["a", "b"], "default": "a"},
        "owner": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
        "meta": {"type": "object", "properties": {"note": {"type": "string"}}},
        "props": {"type": "object", "additionalProperties": True},
        "target": {"oneOf": [{"type": "string", "title": "by name"}, {"$ref": "#/$defs/item"}]},
    },
    "required": ["name", "items"],
    "$defs": {"item": {"type": "object", "properties": {"id": {"type": "string", "format": "uuid"}, "qty": {"type": "integer", "default": 1}}, "required": ["id"]}},
}


@pytest.fixture(scope="module")
def spec():
    return build_spec(NESTED)


def test_each_schema_shape_gets_its_kind(spec):
    kinds = {f.name: (f.kind, f.nullable) for f in spec.fields}
    assert kinds == {
        "name": ("string", False), "when": ("string", False), "count": ("integer", False), "ratio": ("number", True),
        "flag": ("boolean", False), "mode": ("enum", False), "owner": ("string", True), "tags": ("array", False),
        "items": ("array", False), "meta": ("object", False), "props": ("json", False), "target": ("variant", False),
    }
    assert spec.field("when").format == "date-time" and spec.field("when").type_label == "date-time"
    assert spec.field("mode").enum == ("a", "b")
    assert spec.field("owner").type_label == "string|null"


def test_local_refs_resolve_in_arrays_and_variants(spec):
    item = spec.field("items").items
    assert item.kind == "object" and [f.name for f in item.fields] == ["id", "qty"] and item.field("id").required
    target = spec.field("target")
    assert [v.label for v in target.variants] == ["by name", "object (id)"]
    assert target.variants[1].spec.field("qty").default == 1


def test_recursive_and_remote_refs_fall_back_to_json():
    recursive = {"type": "object", "properties": {"node": {"$ref": "#/$defs/node"}}, "$defs": {"node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/node"}}}}}
    node = build_spec(recursive).field("node")
    assert node.kind == "object" and node.field("child").kind == "json"
    remote = build_spec({"type": "object", "properties": {"x": {"$ref": "https://example.com/s.json"}}})
    assert remote.field("x").kind == "json"


def test_constraint_only_one_of_is_not_a_variant():
    spec = build_spec({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "oneOf": [{"required": ["a"]}, {"required": ["b"]}]})
    assert spec.kind == "object" and [f.name for f in spec.fields] == ["a", "b"]


def test_defaults_and_required_containers_fill_the_start(spec):
    assert initial_args(spec) == {"count": 3, "mode": "a", "items": []}
    assert new_item(spec.field("items").items) == {"qty": 1}
    assert new_item(spec.field("tags").items) == ""


def test_project_create_uses_defs_for_entities_and_relationships():
    record = Gateway(call_log=False).registry.get("onto.project.create")  # only its catalogue: nothing to close
    spec = build_spec(record.parameters)
    entity = spec.field("entities").items
    assert entity.kind == "object" and entity.field("temp_id").required and entity.field("kind").kind == "enum"
    assert [f.name for f in spec.field("relationships").items.fields] == ["from", "to", "rel"]
    assert initial_args(spec) == {"project": {"state_key": "draft"}, "entities": [], "relationships": []}


@pytest.mark.parametrize(("kind", "text", "expected"), [
    ("integer", "42", (42, None)), ("integer", "4.5", (MISSING, "'4.5' is not a whole number: type digits only, such as 3 or -2")),
    ("number", "2.5", (2.5, None)), ("number", "7", (7, None)), ("number", "x", (MISSING, "'x' is not a number: type digits, such as 3 or 2.5")),
    ("string", "", (MISSING, None)), ("string", "hi", ("hi", None)), ("boolean", "true", (True, None)),
])
def test_text_parses_by_kind(kind, text, expected):
    assert parse_text(build_spec({"type": kind}), text) == expected


def test_null_and_json_text():
    nullable = build_spec({"type": ["string", "null"]})
    assert parse_text(nullable, "null") == (None, None) and to_text(nullable, None) == "null"
    free = build_spec({"type": "object"})
    assert parse_text(free, '{"a": 1}') == ({"a": 1}, None)
    assert parse_text(free, "{oops")[1].startswith("not valid JSON")
    assert to_text(free, {"a": 1}) == '{"a": 1}'
    assert parse_text(build_spec({"type": "string"}), "", in_array=True) == ("", None)


def test_edits_build_nested_values_and_prune_empty_optional_objects(spec):
    args = initial_args(spec)
    args = edit(args, spec, ("items", 0, "id"), "x")
    assert args["items"] == [{"id": "x"}]
    args = edit(args, spec, ("meta", "note"), "n")
    assert args["meta"] == {"note": "n"}
    args = edit(args, spec, ("meta", "note"), MISSING)
    assert "meta" not in args
    args = edit(args, spec, ("items", 0), MISSING)
    assert args["items"] == []
    assert set_at({"a": [1, 2]}, ("a", 1), MISSING) == {"a": [1]} and get_at({"a": [{"b": 2}]}, ("a", 0, "b")) == 2


def test_variants_match_the_value_and_keep_a_tied_choice(spec):
    target = spec.field("target")
    assert match_variant(target, "x") == 0
    assert match_variant(target, {"id": "u"}) == 1
    assert match_variant(target, MISSING, chosen=1) == 1


def test_layout_follows_arrays_and_variants(spec):
    args = {"items": [{"id": "a"}, {"id": "b"}], "target": {"id": "c"}}
    slot = layout(spec, args)
    paths = field_paths(slot)
    assert ("items", 1, "qty") in paths and ("target", "id") in paths
    assert layout_key(slot) == layout_key(layout(spec, {**args, "name": "changed"}))
    assert layout_key(slot) != layout_key(layout(spec, {**args, "items": [{"id": "a"}]}))


def test_errors_go_to_their_field_or_the_nearest_group(spec):
    paths = field_paths(layout(spec, {"items": [{}]}))
    errors = [
        {"field": "args.items[0].id", "path": "/items/0/id", "code": "missing_required", "message": "missing required argument 'id'"},
        {"field": "args.when", "path": "/when", "code": "invalid_format", "message": "'x' is not a 'date-time'"},
        {"field": "args.zzz", "path": "/zzz", "code": "unknown_argument", "message": "unknown argument 'zzz'"},
        {"field": "args.props.a", "path": "/props/a", "code": "invalid_type", "message": "bad"},
    ]
    placed = place_errors(errors, paths)
    assert placed.by_path[("items", 0, "id")] == ["required"]
    assert placed.by_path[("when",)] == ["'x' is not a 'date-time'"]
    assert placed.by_path[("props",)] == ["a: bad"]
    assert placed.unplaced == ["args.zzz: unknown argument 'zzz'"]
    assert placed.missing_only == {("items", 0, "id")}
    assert pointer_to_path("/a~1b/0") == ("a/b", 0) and pointer_to_path("") == ()


def test_every_real_catalogue_schema_builds(real_catalog, closed_after):
    name, path = real_catalog
    gw = closed_after(Gateway.from_catalogs([path], db_path=":memory:"))
    for record in gw.registry:
        spec = build_spec(record.parameters)
        layout(spec, initial_args(spec))


# -- the order a big form is mounted in -------------------------------------------------


def _wide(count: int, required: tuple[str, ...] = ()) -> dict:
    return {"type": "object", "properties": {f"a{n}": {"type": "string"} for n in range(count)}, "required": list(required)}


def test_placements_follow_sections_and_weigh_what_they_show():
    from opgate.tui.forms import Section, placements

    spec = build_spec({"type": "object", "properties": {"q": {"type": "string"}, "p": {"type": "string"}, "body": NESTED}})
    plan = placements(layout(spec, initial_args(spec)), (Section("path", ("p",)), Section("query", ("q",)), Section("body", ("body",))))
    assert [(p.slot.path, p.section) for p in plan] == [(("p",), "path"), (("q",), "query"), (("body",), "body")]
    assert plan[0].weight == 1 and plan[2].weight == sum(1 for s in plan[2].slot.walk() if s.role == "leaf") > 1


def test_first_batch_is_a_screenful_that_reaches_the_first_needed_argument():
    from opgate.tui.forms import first_batch, placements

    spec = build_spec(_wide(200))
    plan = placements(layout(spec, {}), None)
    assert first_batch(plan, {}, 16) == 16
    assert first_batch(plan[:10], {}, 16) == 10  # a small form is whole at once
    needed = build_spec(_wide(200, required=("a40",)))
    needed_plan = placements(layout(needed, {}), None)  # required first: a40 leads
    assert needed_plan[0].slot.path == ("a40",) and first_batch(needed_plan, {}, 16) == 16
    # a required argument that the layout does not put first (a section further down) stretches the batch, up to a cap
    from opgate.tui.forms import Section

    sectioned = placements(layout(needed, {}), (Section("query", tuple(f"a{n}" for n in range(200) if n != 40)), Section("body", ("a40",))))
    assert first_batch(sectioned, {}, 16) == 64
    assert first_batch(sectioned, {"a40": "x"}, 16) == 16  # filled: nothing to reach


def test_next_batch_takes_a_dozen_or_runs_to_a_path():
    from opgate.tui.forms import next_batch, placements

    plan = placements(layout(build_spec(_wide(100)), {}), None)
    assert next_batch(plan) == 12
    assert next_batch(plan, through=("a50",)) == 51
    assert next_batch(plan[:5]) == 5
