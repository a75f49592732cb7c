"""The real MCP servers the upstream tests put behind opgate, and the small tools the tests share.

The npm reference servers are installed by ensure_servers.sh (pinned, into
.cache/); a server that cannot be installed or started fails the test, it is
never skipped.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SCOPE = "@modelcontextprotocol"


def ensure_servers() -> Path:
    """node_modules holding server-memory, server-everything and server-filesystem."""
    result = subprocess.run(["bash", str(HERE / "ensure_servers.sh")], capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        pytest.fail(f"could not install the reference MCP servers:\n{result.stderr}")
    return Path(result.stdout.strip().splitlines()[-1])


def node() -> str:
    """The machine's node when it is 18 or newer (the servers' floor), else the Node 22 ensure_inspector.sh installs."""
    found = shutil.which("node")
    if found:
        version = subprocess.run([found, "--version"], capture_output=True, text=True).stdout.strip()
        match = re.match(r"v(\d+)", version)
        if match and int(match.group(1)) >= 18:
            return found
    result = subprocess.run(["bash", str(REPO / "tests" / "mcp" / "ensure_inspector.sh")], capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        pytest.fail(f"no usable node: {result.stderr}")
    return str(Path(result.stdout.strip()) / "node")


def script(modules: Path, server: str) -> str:
    path = modules / SCOPE / f"server-{server}" / "dist" / "index.js"
    if not path.exists():
        pytest.fail(f"the {server} server is not installed at {path}")
    return str(path)


def memory(modules: Path, folder: Path, **extra: Any) -> dict[str, Any]:
    return {"command": node(), "args": [script(modules, "memory")], "env": {"MEMORY_FILE_PATH": str(folder / "memory.jsonl")}, **extra}


def everything(modules: Path, **extra: Any) -> dict[str, Any]:
    return {"command": node(), "args": [script(modules, "everything"), "stdio"], **extra}


def filesystem(modules: Path, folder: Path) -> dict[str, Any]:
    return {"command": node(), "args": [script(modules, "filesystem"), str(folder)]}


def shifty(description: str | None = None, *, extra: bool = False) -> dict[str, Any]:
    env = {"PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    if description is not None:
        env["SHIFTY_DESCRIPTION"] = description
    if extra:
        env["SHIFTY_EXTRA"] = "1"
    return {"command": sys.executable, "args": [str(HERE / "shifty_server.py")], "env": env}


def memory_toml(modules: Path, folder: Path, *lines: str) -> Path:
    """An opgate.toml in ``folder`` with the memory server as ``[upstreams.memory]``, and ``lines`` added to its table."""
    server = memory(modules, folder)
    path = folder / "opgate.toml"
    path.write_text(
        "[upstreams.memory]\n"
        f"command = {json.dumps(server['command'])}\n"
        f"args = {json.dumps(server['args'])}\n"
        f"env = {{ MEMORY_FILE_PATH = {json.dumps(server['env']['MEMORY_FILE_PATH'])} }}\n"
        + "".join(f"{line}\n" for line in lines),
        encoding="utf-8",
    )
    return path


def toml_gateway(folder: Path, toml: Path, **options: Any):
    """A gateway on ``toml``'s upstreams, its workspace in ``folder``."""
    from opgate.core import Gateway
    from opgate.core.config import load_config
    from opgate.core.executors.mcp import Upstreams

    config = load_config(toml)
    upstreams = Upstreams.from_files([], configured=config.mcp_servers, configured_source=str(toml))
    return Gateway(db_path=folder / "w.db", upstreams=upstreams, **options)


def write_config(path: Path, servers: dict[str, dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"mcpServers": servers}, indent=2), encoding="utf-8")
    return path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def descendants(root: int) -> list[int]:
    """Every live process below ``root`` (by /proc), children first."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] == "Z":
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found, queue = [], [root]
    while queue:
        for child in parents.get(queue.pop(0), []):
            found.append(child)
            queue.append(child)
    return found


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def server_pids(root: int, needle: str) -> list[int]:
    """The processes below ``root`` whose command line contains ``needle`` (a server's script)."""
    return [pid for pid in descendants(root) if needle in command_line(pid)]


def wait_until(predicate: Callable[[], Any], timeout: float = 10.0, what: str = "the condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"{what} did not happen within {timeout} s")
