"""help at every level: root, groups, kind splits, ops, tool-name aliases and unknown paths."""

import json

import pytest

from opgate.core import Gateway

CATALOG = [
    {
        "type": "function",
        "function": {
            "name": "list_onto_tasks",
            "description": "List tasks. Filters by project and state.",
            "parameters": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "project_id": {"type": "string", "format": "uuid", "description": "Only this project's tasks."},
                    "state_key": {"type": "string", "enum": ["todo", "in_progress", "blocked", "done"]},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 50},
                },
            },
        },
        "x-opgate": {"summary": "List tasks", "examples": [{"title": "All", "args": {}}], "contexts": ["global"]},
    },
    {
        "type": "function",
        "function": {
            "name": "create_onto_task",
            "description": "Create a task.",
            "parameters": {
                "type": "object",
                "additionalProperties": False,
                "required": ["project_id", "title"],
                "properties": {"project_id": {"type": "string", "format": "uuid"}, "title": {"type": "string"}},
            },
        },
        "x-opgate": {
            "sideEffects": "writes",
            "contexts": ["project"],
            "policy": {"do": ["asked to"], "dont": ["to look busy"], "edge_cases": ["ask once"]},
        },
    },
    {
        "type": "function",
        "function": {"name": "web_search", "description": "Search the web.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}},
        "x-opgate": {"sideEffects": "read_only", "contexts": ["base"]},
    },
]


@pytest.fixture
def gateway(tmp_path):
    path = tmp_path / "catalog.json"
    path.write_text(json.dumps(CATALOG))
    from opgate.core import ContextTable, build_registry, load_catalog

    registry = build_registry(load_catalog(path, namespace=""))
    contexts = ContextTable.from_mapping({"contexts": {"global": ["base", "global"], "project": ["base", "project"]}})
    gateway = Gateway(registry, contexts=contexts)
    yield gateway
    gateway.close()


def test_root_lists_groups_with_counts(gateway):
    root = gateway.help()
    assert root["ok"] and root["type"] == "root"
    assert {g["name"]: g["ops"] for g in root["groups"]} == {"onto": 2, "util": 1}
    assert gateway.help("root") == root


def test_group_and_kind_split(gateway):
    task = gateway.help("onto.task")
    assert [line["op"] for line in task["list"]] == ["onto.task.create", "onto.task.list"]
    assert [line["op"] for line in gateway.help("onto.task.read")["list"]] == ["onto.task.list"]
    assert [line["op"] for line in gateway.help("onto.task.write")["list"]] == ["onto.task.create"]


def test_op_help_has_the_standard_fields(gateway):
    payload = gateway.help("onto.task.list")
    assert payload["usage"] == "onto.task.list [project_id=<uuid>] [state_key=todo|in_progress|blocked|done] [limit=<integer>]"
    limit = next(a for a in payload["args"] if a["name"] == "limit")
    assert limit == {"name": "limit", "type": "integer", "required": False, "default": 50, "minimum": 1, "maximum": 200}
    assert payload["examples"] == [{"title": "All", "args": {}}]
    assert "schema" not in payload
    full = gateway.help("onto.task.list", format="full")
    assert full["schema"]["properties"]["limit"]["maximum"] == 200
    assert full["description"].startswith("List tasks")
    assert "examples" not in gateway.help("onto.task.list", include_examples=False)
    assert "schema" in gateway.help("onto.task.list", include_schemas=True)


def test_policy_and_write_notes(gateway):
    payload = gateway.help("onto.task.create")
    assert payload["policy"]["dont"] == ["to look busy"]
    assert payload["usage"] == "onto.task.create project_id=<uuid> title=<string>"
    assert any("allow_write" in note for note in payload["notes"])


def test_tool_name_resolves_to_its_op(gateway):
    payload = gateway.help("list_onto_tasks")
    assert payload["op"] == "onto.task.list"
    assert "tool name" in payload["notes"][0]


def test_unknown_path_names_the_closest(gateway):
    payload = gateway.help("onto.tsk.list")
    assert payload["ok"] is False
    assert payload["error"]["code"] == "UNKNOWN_PATH"
    assert payload["error"]["hints"][0] == "onto.task.list"
    assert payload["error"]["next_action"] == "help(path='onto.task.list')"


def test_bad_format_is_an_error_not_an_exception(gateway):
    assert gateway.help("onto", format="huge")["error"]["code"] == "VALIDATION_ERROR"


def test_context_hides_ops_and_help_does_not_reveal_them(gateway):
    gateway.set_context("global")
    assert gateway.help("onto.task.create")["error"]["code"] == "UNKNOWN_PATH"
    assert gateway.help("create_onto_task")["error"]["code"] == "UNKNOWN_PATH"
    assert "onto.task.create" not in json.dumps(gateway.help("onto.task"))
    gateway.set_context("project")
    assert gateway.help("onto.task.create")["ok"]
    assert gateway.help("onto.task.list")["ok"] is False


def test_unknown_context_is_refused(gateway):
    with pytest.raises(ValueError, match="unknown context"):
        gateway.set_context("nope")


def test_cached_answers_cannot_be_corrupted_by_callers(gateway):
    first = gateway.help("onto.task.list")
    first["args"].clear()
    assert gateway.help("onto.task.list")["args"]


def test_exclusive_bounds_are_in_the_args_table(tmp_path):
    """A discount below 1 (``exclusiveMaximum: 1``) showed only ``minimum: 0``: a model reading help sent 1 and was refused."""
    catalog = [{"type": "function", "function": {"name": "set_discount", "description": "Set a discount.", "parameters": {
        "type": "object", "additionalProperties": False, "required": ["rate"],
        "properties": {"rate": {"type": "number", "minimum": 0, "exclusiveMaximum": 1}, "amount": {"type": "number", "exclusiveMinimum": 0}}}}}]
    path = tmp_path / "functions.json"
    path.write_text(json.dumps(catalog))
    gateway = Gateway.from_catalogs([path], db_path=tmp_path / "w.db", call_log=False, cache=False)
    try:
        args = {a["name"]: a for a in gateway.help(gateway.registry.ops[0])["args"]}
        assert args["rate"]["minimum"] == 0 and args["rate"]["exclusiveMaximum"] == 1
        assert args["amount"]["exclusiveMinimum"] == 0
    finally:
        gateway.close()


def test_an_mcp_title_that_only_names_the_tool_does_not_hide_what_it_does(tmp_path):
    """``sequentialthinking``'s title "Sequential Thinking" was its whole summary: a group's listing told an agent nothing.

    A title that says what the tool does (three words or more) stays the summary.
    """
    tools = {"tools": [
        {"name": "sequentialthinking", "title": "Sequential Thinking", "inputSchema": {"type": "object"},
         "description": "A detailed tool for reflective problem-solving through thoughts. Use it when a problem has steps."},
        {"name": "actions_list", "annotations": {"title": "List GitHub Actions workflows in a repository", "readOnlyHint": True},
         "inputSchema": {"type": "object"}, "description": "Tools for listing GitHub Actions resources."},
        {"name": "echo", "title": "Echo Tool", "inputSchema": {"type": "object"}, "description": ""},
    ]}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools))
    gateway = Gateway.from_catalogs([path], db_path=tmp_path / "w.db", call_log=False, cache=False)
    try:
        pages = {gateway.registry.get(op).tool_name: gateway.help(op) for op in gateway.registry.ops}
        assert pages["sequentialthinking"]["summary"] == "A detailed tool for reflective problem-solving through thoughts."
        assert pages["sequentialthinking"]["title"] == "Sequential Thinking"
        assert pages["actions_list"]["summary"] == "List GitHub Actions workflows in a repository"
        assert "title" not in pages["actions_list"]
        assert pages["echo"]["summary"] == "Echo Tool"  # nothing better to say
        assert "title" not in pages["echo"]
    finally:
        gateway.close()


def test_a_schema_warning_is_said_once_naming_its_arguments(tmp_path):
    """Five arguments with one unknown format gave five identical notes naming none of them."""
    catalog = [{"type": "function", "function": {"name": "place_call", "description": "Place a call.", "parameters": {
        "type": "object", "properties": {
            "Method": {"type": "string", "format": "http-method"}, "FallbackMethod": {"type": "string", "format": "http-method"},
            "To": {"type": "string", "format": "endpoint"}, "Note": {"type": "string"}}}}}]
    path = tmp_path / "functions.json"
    path.write_text(json.dumps(catalog))
    gateway = Gateway.from_catalogs([path], db_path=tmp_path / "w.db", call_log=False, cache=False)
    try:
        notes = [n for n in gateway.help(gateway.registry.ops[0])["notes"] if "format" in n]
        assert notes == ["format 'http-method' is unknown, so it is not checked (Method, FallbackMethod)",
                         "format 'endpoint' is unknown, so it is not checked (To)"], notes
    finally:
        gateway.close()
