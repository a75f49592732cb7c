"""An upstream whose tools are named in Chinese, Greek, Cyrillic or Arabic, against a hand-written stdio server.

Letters that do not fold to ASCII were dropped from op names: every tool of
a server named only in Chinese was the op ``_`` (and ``_2``, ``_3``... in
the order of their names, which moved whenever a tool was added). Each now
has its own op, transliterated (Greek, Cyrillic) or spelled by code point,
and each op runs its own tool.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import upstream_servers as us
from opgate.core import Gateway
from opgate.core.executors.mcp import Upstreams

HERE = Path(__file__).resolve().parent
NAMES = ["搜索文档", "创建文档", "删除文档", "Αναζήτηση_εγγράφων", "Поиск_документов", "بحث", "list_用户"]


def _gateway(tmp_path: Path, names: list[str]) -> Gateway:
    tools = [{"name": name, "description": "" if name == "搜索文档" else f"The tool {name}.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}} for name in names]
    (tmp_path / "tools.json").write_text(json.dumps(tools, ensure_ascii=False), encoding="utf-8")
    server = {"command": sys.executable, "args": [str(HERE / "hostile_server.py")], "env": {"HOSTILE_TOOLS": str(tmp_path / "tools.json"), "HOSTILE_ECHO_TOOL": "1"}}
    config = us.write_config(tmp_path / "servers.json", {"intl": server})
    return Gateway(db_path=tmp_path / "w.db", upstreams=Upstreams.from_files([config]), allow_write=True)


def _ops(gateway: Gateway) -> dict[str, str]:
    return {r.tool_name: r.op for r in gateway.registry if r.op.startswith("intl.")}


def test_tools_named_in_other_scripts_get_their_own_ops_and_each_runs_its_tool(tmp_path):
    gateway = _gateway(tmp_path, NAMES)
    try:
        ops = _ops(gateway)
        assert sorted(ops) == sorted(NAMES) and len(set(ops.values())) == len(NAMES), ops
        assert ops["Αναζήτηση_εγγράφων"] == "intl.anazitisi_engrafon"
        assert ops["Поиск_документов"] == "intl.poisk_dokumentov"
        assert ops["list_用户"] == "intl.u7528u6237.list"
        assert not [p for p in gateway.registry.problems if "already" in p.message], gateway.registry.problems
        # A tool with no description is summed up by its own name, not by its op's code points.
        assert gateway.registry.resolve(ops["搜索文档"]).summary == "搜索文档", gateway.registry.resolve(ops["搜索文档"]).summary
        for name, op in ops.items():
            answer = gateway.exec(op, {"q": op})
            assert answer["ok"] and json.loads(answer["result"]) == {"tool": name, "arguments": {"q": op}}, answer
        # The tool's own name still works where an op does.
        by_name = gateway.exec("搜索文档", {"q": "x"})
        assert by_name["ok"] and json.loads(by_name["result"])["tool"] == "搜索文档", by_name
    finally:
        gateway.close()
    # A tool added to the server leaves the other tools' ops where they were.
    grown = tmp_path / "grown"
    grown.mkdir()
    gateway = _gateway(grown, ["上传文档", *NAMES])
    try:
        assert {name: op for name, op in _ops(gateway).items() if name in NAMES} == ops
    finally:
        gateway.close()
