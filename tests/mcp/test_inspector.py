"""The MCP Inspector CLI as a second, independent client (the TypeScript SDK), over stdio and HTTP.

``ensure_inspector.sh`` installs it with the Node 22 it needs into .cache/;
when that cannot be done (no npm, no registry) these tests fail, saying why.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from mcp_server_driver import child_env, serve_command

SETUP_TIMEOUT = 600
RUN_TIMEOUT = 60
ENSURE = Path(__file__).with_name("ensure_inspector.sh")


@pytest.fixture(scope="module")
def inspector_bin() -> Path:
    try:
        done = subprocess.run(["bash", str(ENSURE)], capture_output=True, text=True, timeout=SETUP_TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"installing the MCP Inspector took over {SETUP_TIMEOUT} s ({ENSURE})")
    if done.returncode != 0:
        pytest.fail(f"the MCP Inspector CLI could not be installed, so it cannot test the server:\n{done.stderr}")
    return Path(done.stdout.strip().splitlines()[-1])


def inspect(inspector_bin: Path, tmp_path: Path, target: list[str], *method: str) -> dict:
    """Run ``mcp-inspector --cli`` on ``target`` (a URL, or a command after ``--``) and read its JSON answer."""
    # Its own catalogue file would go to ~/.mcp-inspector; keep it in the test's folder.
    env = os.environ | {"PATH": f"{inspector_bin}{os.pathsep}{os.environ.get('PATH', '')}", "MCP_CATALOG_PATH": str(tmp_path / "inspector.json")}
    passed_env = [arg for name, value in child_env().items() for arg in ("-e", f"{name}={value}")]
    # A URL goes first: --tool-arg takes every word after it; a command goes last, after "--".
    url, command_line = (target, []) if target[0] != "--" else ([], target)
    command = [str(inspector_bin / "mcp-inspector"), "--cli", *passed_env, *url, *method, *command_line]
    done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT, env=env, cwd=tmp_path)
    assert done.returncode == 0, f"{command}\nstdout: {done.stdout}\nstderr: {done.stderr}"
    return json.loads(done.stdout)


@pytest.fixture(params=["stdio", "http"])
def target(request, tmp_path) -> list[str]:
    if request.param == "http":
        return [request.getfixturevalue("http_server").url]
    return ["--", *serve_command(tmp_path / "workspace.db")]


def test_the_inspector_lists_the_four_tools(inspector_bin, tmp_path, target):
    listing = inspect(inspector_bin, tmp_path, target, "--method", "tools/list")
    tools = {tool["name"]: tool for tool in listing["tools"]}
    assert list(tools) == ["help", "exec", "batch", "search"]
    assert tools["exec"]["inputSchema"]["required"] == ["op"]
    assert tools["help"]["annotations"]["readOnlyHint"] is True


def test_the_inspector_calls_help(inspector_bin, tmp_path, target):
    result = inspect(inspector_bin, tmp_path, target, "--method", "tools/call", "--tool-name", "help", "--tool-arg", "path=onto")
    assert result.get("isError") is False
    assert result["structuredContent"]["path"] == "onto" and result["structuredContent"]["ok"] is True
    assert json.loads(result["content"][0]["text"]) == result["structuredContent"]
    assert "task" in {group["name"] for group in result["structuredContent"]["groups"]}

