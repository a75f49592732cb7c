"""Tool folders (schema.json, guide.md, handler.py): checks, every problem reported, and the built registry."""

from __future__ import annotations

import json
from pathlib import Path

from opgate.cli import main
from opgate.core import Gateway, build_registry, load_catalog

GOOD_SCHEMA = {
    "toolId": "kb_search",
    "version": "1.0.0",
    "description": "Search the knowledge base.",
    "category": "retrieval",
    "sideEffects": "read_only",
    "idempotent": True,
    "requiresConfirmation": False,
    "allowedModes": ["text", "voice"],
    "latencyBudgetMs": 800,
    "parameters": {
        "type": "object",
        "additionalProperties": False,
        "required": ["query"],
        "properties": {"query": {"type": "string", "maxLength": 200}, "top_k": {"type": "integer", "minimum": 1, "maximum": 10}},
    },
}
GOOD_GUIDE = """# kb_search

Search the knowledge base in plain words and get cited answers.

## Parameters
- query (required): what to look for

## Examples

```json
{"query": "robotics labs"}
```

## Watch Out
- Empty results are not failures.
"""


def _tool(root: Path, folder: str, schema: dict | str, guide: str | None = GOOD_GUIDE, handler: bool = True) -> None:
    path = root / folder
    path.mkdir(parents=True)
    (path / "schema.json").write_text(schema if isinstance(schema, str) else json.dumps(schema))
    if guide is not None:
        (path / "guide.md").write_text(guide)
    if handler:
        (path / "handler.py").write_text("def execute(context):\n    return {'ok': True, 'data': {}}\n")


def test_a_good_folder_loads_with_summary_examples_and_notes(tmp_path):
    _tool(tmp_path / "tools", "kb-search", GOOD_SCHEMA)
    registry = build_registry(load_catalog(tmp_path / "tools"))
    record = registry.resolve("kb_search")
    assert record.op == "tools.kb.search"
    assert record.summary == "Search the knowledge base in plain words and get cited answers."
    assert record.examples[0]["args"] == {"query": "robotics labs"}
    assert record.notes == ("Empty results are not failures.",)
    assert record.kind == "read" and record.metadata.latency_budget_ms == 800


def test_every_problem_is_reported_with_file_and_field(tmp_path):
    root = tmp_path / "tools"
    _tool(root, "kb-search", GOOD_SCHEMA)
    _tool(root, "no-handler", {**GOOD_SCHEMA, "toolId": "no_handler"}, handler=False)
    _tool(root, "wrong-id", {**GOOD_SCHEMA, "toolId": "other"})
    bad = {**GOOD_SCHEMA, "toolId": "bad_fields", "category": "magic", "allowedModes": [], "version": "one"}
    bad["parameters"] = {"type": "object", "properties": {"when": {"type": "string", "format": "moonphase"}}}
    del bad["latencyBudgetMs"]
    _tool(root, "bad-fields", bad, guide="# bad\n\n" + "x" * 300 + "\n")
    _tool(root, "broken-json", "{not json")
    registry = build_registry(load_catalog(root))
    assert registry.ops == ["tools.kb.search"]
    found = {(p.tool, p.field) for p in registry.problems if p.severity == "error"}
    assert ("no-handler", "handler.py") in found
    assert ("wrong-id", "toolId") in found
    for field in ("category", "allowedModes", "version", "latencyBudgetMs", "summary", "parameters/additionalProperties"):
        assert ("bad-fields", field) in found, field
    assert any(p.tool == "broken-json" and "not valid JSON" in p.message for p in registry.problems)
    assert any(p.tool == "bad-fields" and "moonphase" in p.message for p in registry.problems)


def test_build_writes_a_versioned_registry_with_provider_schemas(tmp_path, capsys, closed_after):
    _tool(tmp_path / "tools", "kb-search", GOOD_SCHEMA)
    out = tmp_path / "registry.json"
    assert main(["build", str(tmp_path / "tools"), "--out", str(out)]) == 0
    document = json.loads(out.read_text())
    assert document["tool_count"] == 1 and len(document["registry_version"]) == 16
    assert set(document["provider_schemas"]) == {"openai", "anthropic", "gemini"}
    assert document["provider_schemas"]["anthropic"][0]["input_schema"]["required"] == ["query"]
    again = tmp_path / "again.json"
    main(["build", str(tmp_path / "tools"), "--out", str(again)])
    assert json.loads(again.read_text())["registry_version"] == document["registry_version"]
    # A built registry is itself a catalogue source, and keeps its ops exactly.
    gateway = closed_after(Gateway.from_catalogs([out]))
    assert gateway.registry.ops == ["tools.kb.search"]
    assert gateway.registry.version == document["registry_version"]


def test_build_refuses_to_write_when_a_folder_is_broken(tmp_path, capsys):
    _tool(tmp_path / "tools", "kb-search", GOOD_SCHEMA)
    _tool(tmp_path / "tools", "wrong-id", {**GOOD_SCHEMA, "toolId": "other"})
    out = tmp_path / "registry.json"
    assert main(["build", str(tmp_path / "tools"), "--out", str(out)]) == 1
    assert not out.exists()
    printed = capsys.readouterr().out
    assert "wrong-id/schema.json toolId" in printed.replace("\n", " ")


def test_openai_and_mcp_sources_and_broken_catalogues(tmp_path):
    (tmp_path / "fns.json").write_text(json.dumps([{"name": "list_widgets", "description": "List widgets.", "parameters": {"type": "object", "properties": {}}}, {"nope": 1}]))
    (tmp_path / "srv_tools.json").write_text(json.dumps({"tools": [{"name": "delete_widget", "description": "", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": True}}]}))
    (tmp_path / "broken.json").write_text("[{")
    registry = build_registry([*load_catalog(tmp_path / "fns.json"), *load_catalog(tmp_path / "srv_tools.json"), *load_catalog(tmp_path / "broken.json")])
    assert registry.ops == ["fns.widget.list", "mcp.srv.widget.delete"]
    assert registry.get("mcp.srv.widget.delete").destructive
    assert any("not valid JSON" in p.message for p in registry.problems)
    assert any(p.field == "[1].name" for p in registry.problems)


def test_a_remote_ref_is_refused_and_the_rest_loads(tmp_path):
    tools = [
        {"name": "fetch_thing", "description": "", "parameters": {"type": "object", "properties": {"x": {"$ref": "https://example.com/schema.json"}}}},
        {"name": "get_other", "description": "", "parameters": {"type": "object"}},
    ]
    (tmp_path / "c.json").write_text(json.dumps(tools))
    registry = build_registry(load_catalog(tmp_path / "c.json"))
    assert registry.ops == ["c.other.get"]
    assert any(p.tool == "fetch_thing" and "remote $ref" in p.message for p in registry.problems)
