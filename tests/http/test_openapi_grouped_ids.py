"""operationIds with groups of their own (``gists/create-comment``, as GitHub's REST API names its 1,223):
the group becomes a namespace level, and the rest names the entity and the action.

Read as one name, ``gists/create-comment`` has its verb in the middle: the op
was ``gists_create_comment``, and 1,182 of GitHub's operations sat side by
side at the top of their namespace. OpenAPI's wire formats (``int64``) were
reported as unknown formats, once per use.
"""

from __future__ import annotations

import json

from loopback_server import Answer, LoopbackServer
from opgate.core import Gateway
from opgate.core.config import HttpUpstreamConfig, OpgateConfig

OK = {"200": {"description": "ok"}}
DOCUMENT = {
    "openapi": "3.0.3",
    "info": {"title": "Gists", "version": "1"},
    "paths": {
        "/gists/{gist_id}": {
            "get": {"operationId": "gists/get", "parameters": [{"name": "gist_id", "in": "path", "required": True, "schema": {"type": "integer", "format": "int64"}}], "responses": OK},
        },
        "/gists/{gist_id}/comments": {
            "get": {"operationId": "gists/list-comments", "parameters": [{"name": "gist_id", "in": "path", "required": True, "schema": {"type": "integer", "format": "int64"}}], "responses": OK},
            "post": {"operationId": "gists/create-comment", "parameters": [{"name": "gist_id", "in": "path", "required": True, "schema": {"type": "integer"}}],
                     "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {"content": {"type": "string"}}, "required": ["content"]}}}}, "responses": OK},
        },
        "/meta": {"get": {"operationId": "meta/root", "responses": OK}},
        "/plain": {"get": {"operationId": "listPlainThings", "responses": OK}},
        "/slashed": {"get": {"operationId": "/odd//", "responses": OK}},
    },
}


def _gateway(tmp_path, url: str) -> Gateway:
    document = tmp_path / "gists.json"
    document.write_text(json.dumps(DOCUMENT), encoding="utf-8")
    upstream = HttpUpstreamConfig(name="gh", openapi=document, base_url=url, timeout_s=5.0)
    return Gateway.from_catalogs([], config=OpgateConfig(http_upstreams={"gh": upstream}), db_path=tmp_path / "w.db", allow_write=True, call_log=False)


def test_an_operation_ids_group_is_a_level_of_the_namespace(tmp_path):
    gateway = _gateway(tmp_path, "http://127.0.0.1:9")
    try:
        named = {gateway.registry.get(op).tool_name: op for op in gateway.registry.ops}
        assert named == {
            "gists/get": "gh.gists.get",
            "gists/list-comments": "gh.gists.comment.list",
            "gists/create-comment": "gh.gists.comment.create",
            "meta/root": "gh.meta.root",
            "listPlainThings": "gh.plain_thing.list",  # no group of its own: named as before
            "/odd//": "gh.odd",
        }
        assert [line["op"] for line in gateway.help("gh.gists.comment")["list"]] == ["gh.gists.comment.create", "gh.gists.comment.list"]
        assert not [p.message for p in gateway.registry.problems if "format" in p.message], "OpenAPI's int64 was reported as an unknown format"
    finally:
        gateway.close()


def test_a_grouped_op_runs_the_operation_it_names(tmp_path):
    server = LoopbackServer().start()
    try:
        server.script("POST", "/gists/7/comments", Answer(201, {"id": 1, "body": "hello"}))
        server.script("GET", "/gists/7/comments", Answer(200, [{"id": 1, "body": "hello"}]))
        gateway = _gateway(tmp_path, server.url)
        try:
            created = gateway.exec("gh.gists.comment.create", {"gist_id": 7, "body": {"content": "hello"}})
            assert created["ok"] and created["result"] == {"id": 1, "body": "hello"}, created
            listed = gateway.exec("gh.gists.comment.list", {"gist_id": 7})
            assert listed["ok"] and listed["result"] == [{"id": 1, "body": "hello"}], listed
            assert [(r.method, r.path) for r in server.received] == [("POST", "/gists/7/comments"), ("GET", "/gists/7/comments")]
            assert json.loads(server.received[0].body) == {"content": "hello"}
        finally:
            gateway.close()
    finally:
        server.stop()
