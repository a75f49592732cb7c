"""OpenAPI documents as catalogues: Twilio's API v2010, the petstore (YAML), names that round-trip, safe keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from opgate.core import Gateway
from opgate.core.catalog import load_catalog
from opgate.core.catalog.openapi import SAFE_KEY, safe_alias
from opgate.core.export import export_tool, provider_tool_name
from opgate.core.modes import ToolRouter
from opgate.core.registry import build_registry

OPENAPI = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "openapi"


def _document(name: str) -> Path:
    path = OPENAPI / name
    if not path.exists():
        pytest.fail(f"shared test data is missing: {path}")
    return path


@pytest.fixture(scope="module")
def twilio():
    return build_registry(load_catalog(_document("twilio_api_v2010.json")))


def test_all_197_operations_of_twilio_v2010_load_as_runnable_http_ops(twilio):
    assert len(twilio) == 197
    assert not [p for p in twilio.problems if p.severity == "error"]
    assert {r.binding.kind for r in twilio} == {"http"}
    assert {r.binding.upstream for r in twilio} == {"twilio_api_v2010"}
    assert len({r.binding.target for r in twilio}) == 197


def test_every_name_round_trips(twilio):
    for record in twilio:
        for name in (provider_tool_name(record, by_op=True), provider_tool_name(record)):
            assert len(name) <= 64
            assert twilio.resolve(name) is record, name
    exported = [provider_tool_name(r, by_op=True) for r in twilio]
    assert len(set(exported)) == len(exported)
    assert any(len(r.op.replace(".", "__")) > 64 for r in twilio), "the test should cover shortened names"


def test_the_flattened_twilio_catalogue_names_no_longer_collide(twilio_catalog):
    registry = build_registry(load_catalog(twilio_catalog))
    exported = {provider_tool_name(r, by_op=True): r.op for r in registry}
    assert len(exported) == len(registry)
    assert all(registry.resolve(name).op == op for name, op in exported.items())
    gateway = Gateway(registry, call_log=False)
    envelope = ToolRouter(gateway).call("run_tool", {"name": "twilio__api_v2010__call__list", "arguments": {}})
    assert envelope["op"] == "twilio.api_v2010.call.list"  # found (browse-only there), not NOT_FOUND


def test_every_property_key_is_safe_for_every_provider_and_aliases_map_back(twilio):
    for record in twilio:
        for key in record.parameters["properties"]:
            assert SAFE_KEY.match(key), (record.op, key)
        export_tool(record, "anthropic")
    calls = twilio.get("twilio_api_v2010.call.list").parameters["properties"]
    assert "StartTime_before" in calls and "`StartTime<`" in calls["StartTime_before"]["description"]
    assert safe_alias("StartTime>") == "StartTime_after" and safe_alias("page[size]") == "page_size"


def test_form_fields_are_arguments_and_required_fields_are_kept(twilio):
    schema = twilio.get("twilio_api_v2010.message.create").parameters
    assert {"AccountSid", "To", "Body", "From"} <= set(schema["properties"])
    assert {"AccountSid", "To"} <= set(schema["required"])
    assert schema["additionalProperties"] is False


def test_empty_descriptions_are_filled_from_what_the_document_says(twilio):
    record = twilio.get("twilio_api_v2010.address.create")
    assert "POST /2010-04-01/Accounts/{AccountSid}/Addresses.json" in record.description
    assert "Arguments:" in record.description and record.summary
    assert all(r.description.strip() for r in twilio)


def test_methods_decide_reads_writes_and_confirmation(twilio):
    assert twilio.get("twilio_api_v2010.message.fetch").kind == "read"
    assert twilio.get("twilio_api_v2010.message.create").kind == "write"
    delete = twilio.get("twilio_api_v2010.message.delete")
    assert delete.destructive and delete.requires_confirmation


def test_yaml_petstore_loads_with_json_body_and_refs_inlined():
    registry = build_registry(load_catalog(f"pets={_document('petstore_expanded.yaml')}"))
    assert sorted(registry.ops) == ["pets.pet.add", "pets.pet.delete", "pets.pet.find", "pets.pet_by_id.find"]
    body = registry.get("pets.pet.add").parameters["properties"]["body"]
    assert "$ref" not in json.dumps(body) and "name" in body["required"]


def test_swagger_2_is_refused_with_a_clear_message(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"swagger": "2.0", "info": {}, "paths": {}}))
    (load,) = load_catalog(path)
    assert not load.tools and "Swagger 2.0" in load.problems[0].message and "OpenAPI 3" in load.problems[0].message


def test_an_x_opgate_extension_overrides_the_method(tmp_path):
    document = {
        "openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "servers": [{"url": "https://x.invalid"}],
        "paths": {"/search": {"post": {"operationId": "searchThings", "x-opgate": {"kind": "read"}, "responses": {"200": {"description": "ok"}}}},
                  "/things/{id}": {"delete": {"operationId": "deleteThing", "x-opgate": {"requiresConfirmation": False}, "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}], "responses": {"204": {"description": "gone"}}}}},
    }
    path = tmp_path / "things.json"
    path.write_text(json.dumps(document))
    registry = build_registry(load_catalog(path))
    assert registry.get("things.thing.search").kind == "read"
    assert not registry.get("things.thing.delete").requires_confirmation


def test_loading_never_touches_the_network(monkeypatch):
    import socket

    def refuse(*args, **kwargs):
        raise AssertionError("loading a catalogue opened a connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    assert len(build_registry(load_catalog(_document("twilio_events_v1.json")))) > 0


def test_a_document_group_is_summed_up_in_the_document_s_own_words(twilio, tmp_path):
    """The group's summary was "Tools from twilio_api_v2010.json."; the document says what the API is."""
    assert twilio.group_summaries["twilio_api_v2010"] == "Twilio - Api: This is the public Twilio REST API. (twilio_api_v2010.json)"
    # A title alone, a long description cut to one line, and none at all.
    for info, expected in (
        ({"title": "Library"}, "Library (lib.json)"),
        ({"title": "Library", "description": "Shelves and books.\nMore words " * 40}, "Library: Shelves and books. (lib.json)"),
        ({"title": "x" * 400}, "x" * 159 + "… (lib.json)"),
        ({}, "Tools from lib.json."),
    ):
        document = {"openapi": "3.0.3", "info": {"version": "1", **info}, "servers": [{"url": "http://127.0.0.1:9"}],
                    "paths": {"/books": {"get": {"operationId": "listBooks", "responses": {"200": {"description": "ok"}}}}}}
        path = tmp_path / "lib.json"
        path.write_text(json.dumps(document))
        assert build_registry(load_catalog(path)).group_summaries["lib"] == expected
