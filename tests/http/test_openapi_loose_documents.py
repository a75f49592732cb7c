"""OpenAPI documents that are loose or hostile: what opgate cannot follow is said, and a path variable nobody declared is asked for.

A ``$ref`` that led outside the document (``other.json#/Q``, ``/etc/passwd``),
nowhere in it, or round in a loop (A -> B -> A) was read as an empty schema
without a word: the parameter it named was silently left out, a body went
unchecked. A path naming ``{b}`` with no parameter for it sent ``%7Bb%7D``
to the server, which the loopback server here shows.
"""

from __future__ import annotations

import json

from loopback_server import Answer, LoopbackServer
from opgate.core import Gateway
from opgate.core.config import HttpUpstreamConfig, OpgateConfig

DOCUMENT = {
    "openapi": "3.0.3",
    "info": {"title": "Loose", "version": "1"},
    "paths": {
        "/missing/{b}": {"get": {"operationId": "missingParam", "responses": {"200": {"description": "ok"}}}},
        "/ext": {"get": {"operationId": "extRef", "parameters": [{"name": "q", "in": "query", "schema": {"$ref": "other.json#/Q"}}, {"$ref": "/etc/passwd#/x"}], "responses": {"200": {"description": "ok"}}}},
        "/loop": {"post": {"operationId": "loop", "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}, "responses": {"200": {"description": "ok"}}}},
        "/gone": {"get": {"operationId": "gone", "parameters": [{"$ref": "#/components/parameters/Nope"}], "responses": {"200": {"description": "ok"}}}},
        "/broken/{a": {"get": {"operationId": "brokenBrace", "responses": {"200": {"description": "ok"}}}},
        "/fine/{id}": {"get": {"operationId": "fine", "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}], "responses": {"200": {"description": "ok"}}}},
    },
    "components": {"schemas": {"A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/A"}}},
}


def _gateway(tmp_path, url: str) -> Gateway:
    document = tmp_path / "loose.json"
    document.write_text(json.dumps(DOCUMENT), encoding="utf-8")
    upstream = HttpUpstreamConfig(name="loose", openapi=document, base_url=url, timeout_s=5.0)
    return Gateway.from_catalogs([], config=OpgateConfig(http_upstreams={"loose": upstream}), db_path=tmp_path / "w.db", allow_write=True, call_log=False)


def test_what_cannot_be_followed_is_reported_per_operation(tmp_path):
    gateway = _gateway(tmp_path, "http://127.0.0.1:9")
    try:
        said = {}
        for problem in gateway.registry.problems:
            said.setdefault(problem.tool, []).append(problem.message)
        assert any("'other.json#/Q' points outside this document" in m for m in said["extRef"]), said
        assert any("'/etc/passwd#/x' points outside this document" in m for m in said["extRef"]), said
        assert any("leads back to itself" in m and "#/components/schemas/B" in m for m in said["loop"]), said
        assert any("points at nothing in this document" in m for m in said["gone"]), said
        assert any("brace" in m for m in said["brokenBrace"]), said
        assert "fine" not in said
    finally:
        gateway.close()


def test_a_path_variable_no_parameter_declares_is_a_required_argument_sent_in_the_path(tmp_path):
    server = LoopbackServer().start()
    try:
        server.script("GET", "/missing/b-value", Answer(200, {"ok": True}))
        gateway = _gateway(tmp_path, server.url)
        try:
            refused = gateway.exec("loose.missing_param", {})
            assert refused["error"]["code"] == "VALIDATION_ERROR" and refused["error"]["details"]["field_errors"][0]["field"] == "args.b", refused
            assert server.received == [], "an invalid call reached the server"
            answer = gateway.exec("loose.missing_param", {"b": "b-value"})
            assert answer["ok"], answer
            assert [r.path for r in server.received] == ["/missing/b-value"]
            assert any("{b}" in m and "no parameter declares" in m for m in (p.message for p in gateway.registry.problems))
        finally:
            gateway.close()
    finally:
        server.stop()
