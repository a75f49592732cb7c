"""The explorer copies a call as an ``opgate exec`` line that runs where it was built: with the same catalogues, servers and configuration."""

from __future__ import annotations

from opgate.cli import _parse, build_parser
from opgate.cli._ui_commands import copied_options


def _args(argv: list[str]):
    return _parse(build_parser(argv), argv)


def test_the_copied_command_line_names_the_mcp_servers_and_the_configuration():
    args = _args(["--mcp-servers", "servers.json", "--config", "petstore.toml", "--catalog", "tools/", "--db", "w.db", "--context", "global"])
    assert copied_options(args, demo=False) == [
        "--catalog", "tools/", "--mcp-servers", "servers.json", "--config", "petstore.toml", "--db", "w.db", "--context", "global",
    ]


def test_a_demo_copy_leaves_out_the_scratch_database():
    args = _args(["--demo", "--mcp-servers", "servers.json"])
    args.db = "/tmp/scratch/demo.db"
    assert copied_options(args, demo=True) == ["--mcp-servers", "servers.json"]


def test_the_top_bar_names_the_mcp_server_files_beside_the_catalogue():
    from opgate.cli._ui_commands import catalog_label

    assert catalog_label(_args([])) == "built-in catalogue"
    assert catalog_label(_args(["--mcp-servers", "servers.json"])) == "built-in catalogue + servers.json"
    assert catalog_label(_args(["--catalog", "tools/", "--mcp-servers", "a.json", "--mcp-servers", "b.json"])) == "tools/ + a.json + b.json"
    assert catalog_label(_args(["--mcp-servers", "a.json"]), ["twilio", "pets"]) == "built-in catalogue + a.json + pets, twilio (OpenAPI)", "opgate.toml's upstreams are named too"
    assert catalog_label(_args([]), ["pets"], ["memory", "files"]) == "built-in catalogue + pets (OpenAPI) + files, memory (MCP)"
