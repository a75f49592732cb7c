"""An MCP upstream named in opgate.toml runs like one given with --mcp-servers."""

from __future__ import annotations

import json
import subprocess
import sys

import upstream_servers


def _toml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def test_an_mcp_upstream_in_opgate_toml_lists_and_runs(tmp_path, modules):
    server = upstream_servers.memory(modules, tmp_path)
    toml = tmp_path / "opgate.toml"
    toml.write_text(
        "[upstreams.memory]\n"
        f"command = {_toml_string(server['command'])}\n"
        f"args = [{', '.join(_toml_string(a) for a in server['args'])}]\n"
        f"env = {{ MEMORY_FILE_PATH = {_toml_string(server['env']['MEMORY_FILE_PATH'])} }}\n",
        encoding="utf-8",
    )
    base = [sys.executable, "-m", "opgate", "--config", str(toml), "--db", str(tmp_path / "w.db")]
    listed = subprocess.run([*base, "upstreams", "--json"], capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0, listed.stderr
    (memory,) = [u for u in json.loads(listed.stdout)["upstreams"] if u["name"] == "memory"]
    assert memory["tools"] > 0
    read = subprocess.run([*base, "exec", "read_graph", "--json"], capture_output=True, text=True, timeout=120)
    assert read.returncode == 0, read.stdout + read.stderr
    assert json.loads(read.stdout)["ok"] is True
