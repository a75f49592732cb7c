"""The explorer's HTTP pieces without a terminal: argument sections from the op's recorded locations, request and response text."""

from __future__ import annotations

from http_testing import TWILIO_DOCUMENT
from opgate.core import Gateway
from opgate.core.config import HttpUpstreamConfig, OpgateConfig
from opgate.tui._palette import Palette
from opgate.tui._render_http import http_response, render_request, render_response
from opgate.tui.forms import build_spec, sections_for
from rich.console import Console


def twilio(tmp_path) -> Gateway:
    upstream = HttpUpstreamConfig(name="twilio", openapi=TWILIO_DOCUMENT)
    return Gateway.from_catalogs([], config=OpgateConfig(http_upstreams={"twilio": upstream}), db_path=tmp_path / "g.db", call_log=False)


def text_of(renderable) -> str:
    console = Console(width=200, color_system=None, record=True)
    console.print(renderable)
    return console.export_text()


def test_the_loader_records_where_each_argument_goes_without_touching_the_schema(tmp_path):
    gateway = twilio(tmp_path)
    try:
        record = gateway.registry.get("twilio.call.list")
        assert record.arguments_in["AccountSid"] == "path" and record.arguments_in["StartTime_before"] == "query"
        assert set(record.arguments_in) == set(record.parameters["properties"])
        assert "arguments_in" not in record.parameters and all("x-in" not in s for s in record.parameters["properties"].values())
        assert record.to_dict()["arguments_in"] == record.arguments_in
    finally:
        gateway.close()


def test_an_http_ops_form_is_grouped_path_query_body_with_required_first(tmp_path):
    gateway = twilio(tmp_path)
    try:
        create = gateway.registry.get("twilio.message.create")
        sections = sections_for(build_spec(create.parameters), create.arguments_in)
        assert [s.name for s in sections] == ["path", "body"]
        body = sections[1].args
        assert body[0] == "To" and "AccountSid" not in body and set(body) | {"AccountSid"} == set(create.parameters["properties"])
        listing = gateway.registry.get("twilio.message.list")
        sections = sections_for(build_spec(listing.parameters), listing.arguments_in)
        assert [s.name for s in sections] == ["path", "query"]
        assert sections_for(build_spec({"type": "object", "properties": {"a": {"type": "string"}}}), None) is None
    finally:
        gateway.close()


def test_the_request_and_the_response_read_as_http():
    palette = Palette()
    preview = {"method": "POST", "url": "http://127.0.0.1:4010/Messages.json", "headers": {"authorization": "***", "content-type": "application/x-www-form-urlencoded"},
               "body": "To=%2B1555&Body=[bold]hi[/bold]", "auth": {"kind": "basic", "from_env": ["SID", "TOKEN"]}}
    shown = text_of(render_request(preview, palette))
    assert "POST http://127.0.0.1:4010/Messages.json" in shown and "authorization: ***" in shown
    assert "To=%2B1555&Body=[bold]hi[/bold]" in shown  # data, never markup
    ok = {"ok": True, "result": {"sid": "SM1"}, "meta": {"http": {"status": 201, "reason": "Created", "headers": {"content-type": "application/json"}}}}
    shown = text_of(render_response(*http_response(ok), palette))
    assert "HTTP 201 Created" in shown and "content-type: application/json" in shown and '"sid": "SM1"' in shown
    failed = {"ok": False, "error": {"code": "NOT_FOUND", "details": {"status": 404, "http": {"status": 404, "reason": "Not Found", "headers": {}, "body": {"message": "no pet"}}}}}
    assert "HTTP 404 Not Found" in text_of(render_response(*http_response(failed), palette))
    assert http_response({"ok": True, "result": 1, "meta": {}}) is None
