"""An OpenAPI document whose paths and operationIds are in other scripts: each operation its own op, its summary readable.

Path segments were cut to ASCII letters before naming: operations without
an operationId on /文档 and /وثائق were both ``list_`` (so ``docs.list`` and
``docs.list_2``, in sort order), and a DELETE had no entity at all. Summaries
built from an operationId spelled it by code point ("U5217u51fa...").
"""

from __future__ import annotations

import json

from opgate.core import Gateway
from opgate.core.config import HttpUpstreamConfig, OpgateConfig

OK = {"200": {"description": "ok"}}
DOCUMENT = {
    "openapi": "3.0.3",
    "info": {"title": "Docs", "version": "1"},
    "paths": {
        "/文档": {"get": {"responses": OK}, "post": {"operationId": "创建文档", "responses": OK}},
        "/وثائق": {"get": {"responses": OK}, "delete": {"responses": OK}},
        "/έγγραφα": {"get": {"responses": OK}},
        "/Straße": {"get": {"responses": OK}},
    },
}


def test_operations_named_in_other_scripts_get_their_own_ops_and_readable_summaries(tmp_path):
    document = tmp_path / "docs.json"
    document.write_text(json.dumps(DOCUMENT, ensure_ascii=False), encoding="utf-8")
    upstream = HttpUpstreamConfig(name="docs", openapi=document, base_url="http://127.0.0.1:9")
    gateway = Gateway.from_catalogs([], config=OpgateConfig(http_upstreams={"docs": upstream}), db_path=tmp_path / "w.db", call_log=False)
    try:
        records = {r.op: r for r in gateway.registry if r.op.startswith("docs.")}
        assert sorted(records) == [
            "docs.engrafa.list", "docs.strasse.list", "docs.u521bu5efau6587u6863",
            "docs.u648u62bu627u626u642.delete", "docs.u648u62bu627u626u642.list", "docs.u6587u6863.list",
        ], sorted(records)
        assert not [p for p in gateway.registry.problems if "already" in p.message], gateway.registry.problems
        assert records["docs.u521bu5efau6587u6863"].summary == "创建文档."
        assert records["docs.u648u62bu627u626u642.delete"].summary == "Delete وثائق."
    finally:
        gateway.close()
