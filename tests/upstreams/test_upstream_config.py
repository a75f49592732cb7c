"""Reading upstream configuration: the formats MCP clients use, validated whole, with file and key in every problem."""

from __future__ import annotations

import json

import pytest

from opgate.core.executors.mcp import HTTP, STDIO, UpstreamConfigError, load_upstream_configs


def write(tmp_path, data, name="servers.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def problems(*paths, environ=None) -> list[str]:
    with pytest.raises(UpstreamConfigError) as caught:
        load_upstream_configs(paths, environ=environ or {})
    return caught.value.problems


def test_claude_desktop_and_vscode_shapes(tmp_path):
    claude = write(tmp_path, {"mcpServers": {
        "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": {"KEY": "${API_KEY}"}, "cwd": "/tmp"},
        "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${env:API_KEY}"}, "trust_annotations": False},
    }})
    vscode = write(tmp_path, {"servers": {"files": {"type": "stdio", "command": "node", "args": ["fs.js"]}, "api": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}, "inputs": []}, "vscode.json")
    configs = {c.name: c for c in load_upstream_configs([claude, vscode], environ={"API_KEY": "secret-123456"})}
    assert configs["memory"].transport == STDIO and configs["memory"].env == {"KEY": "secret-123456"} and configs["memory"].cwd == "/tmp"
    assert configs["remote"].transport == HTTP and configs["remote"].headers == {"Authorization": "Bearer secret-123456"}
    assert configs["remote"].trust_annotations is False and configs["memory"].trust_annotations is True
    assert configs["files"].args == ("fs.js",) and configs["api"].url == "http://127.0.0.1:9/mcp"
    assert "secret-123456" in configs["memory"].secrets and "secret-123456" not in repr(configs["memory"]) + repr(configs["remote"])


def test_every_problem_is_reported_with_its_file_and_key(tmp_path):
    path = write(tmp_path, {"mcpServers": {
        "Git Hub": {"command": "x"},
        "util": {"command": "x"},
        "a": {"command": "x", "url": "http://x", "colour": "red"},
        "b": {"args": "not a list"},
        "c": {"type": "sse", "url": "http://x"},
        "d": {"command": "x", "env": {"TOKEN": "${MISSING_VAR}", "N": 3, "I": "${input:token}"}},
        "e": {"url": "ftp://x", "trust_annotations": "yes"},
    }, "extra": 1})
    found = problems(path)
    where = str(path)
    assert all(p.startswith(where + ": ") for p in found)
    expected = [
        "extra: unknown key",
        "mcpServers.Git Hub: an upstream's name becomes its namespace",
        "mcpServers.util: 'util' is the built-in catalogue's namespace",
        "mcpServers.a.colour: unknown key",
        "mcpServers.b.command: expected the command",
        "mcpServers.b.args: expected a list of strings",
        "mcpServers.c.type: expected \"stdio\" or \"http\"",
        "mcpServers.d.env.TOKEN: the environment variable MISSING_VAR is not set",
        "mcpServers.d.env.N: expected a string",
        "mcpServers.d.env.I: only ${VAR} and ${env:VAR}",
        "mcpServers.e.url: expected an http:// or https:// URL",
        "mcpServers.e.trust_annotations: expected true or false",
    ]
    for text in expected:
        assert any(text in p for p in found), (text, found)
    # a stdio server given "url" is read as an HTTP one, whose unknown key is "command"
    assert any("mcpServers.a.command: unknown key" in p for p in found), found


def test_unreadable_files_and_duplicate_names(tmp_path):
    good = write(tmp_path, {"mcpServers": {"memory": {"command": "x"}}}, "good.json")
    again = write(tmp_path, {"mcpServers": {"memory": {"command": "y"}}}, "again.json")
    broken = write(tmp_path, "{not json", "broken.json")
    found = problems(good, again, broken, tmp_path / "missing.json")
    assert any("again.json: mcpServers.memory: the name 'memory' is already used" in p for p in found)
    assert any("broken.json: not valid JSON" in p for p in found)
    assert any("missing.json: no such file" in p for p in found)


def test_header_values_http_cannot_carry_are_refused_without_quoting_them(tmp_path):
    """A token read with its trailing newline (TOKEN=$(cat file)) was accepted; the HTTP client refused it at the first call
    with "Illegal header value b'Bearer ...\\n'", and that escaped form of the secret got past the masking into
    `opgate upstreams` and the catalogue's problems."""
    path = write(tmp_path, {"mcpServers": {
        "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}", "X-Team": "caf\u00e9", "Bad Name": "x"}},
    }})
    found = problems(path, environ={"TOKEN": "s3cret-token-9876\n"})
    assert any("mcpServers.remote.headers.Authorization: a header value holds a line break" in p for p in found), found
    assert any("mcpServers.remote.headers.X-Team: a header value holds the character U+00E9" in p for p in found), found
    assert any("mcpServers.remote.headers.Bad Name: not a header name" in p for p in found), found
    assert not any("s3cret" in p for p in found), found


def test_files_that_cannot_be_read_as_named_are_problems(tmp_path):
    deep = write(tmp_path, "[" * 100_000 + "]" * 100_000, "deep.json")
    found = problems(deep, "~nosuchuser_opgate/servers.json", str(tmp_path / "nul\x00.json"))
    assert any("deep.json: not read: arrays or objects nested too deeply" in p for p in found), found
    assert any("~nosuchuser_opgate/servers.json: no such file" in p for p in found), found
    assert any("cannot read: embedded null byte" in p for p in found), found
