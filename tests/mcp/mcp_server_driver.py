"""Starting real ``opgate serve`` subprocesses for the MCP tests, and connecting the SDK's client to them."""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters

STARTUP_TIMEOUT = 30.0
CALL_TIMEOUT = 30.0
ERAS = ("2026-07-28", "legacy")
"""The SDK client's modes: the per-request 2026-07-28 protocol, and the initialize handshake (2025-11-25)."""

DEMO_PROJECT = "10000000-0000-4000-8000-000000000001"


SLOW_CALL_SERVER = """
import sys, time
from opgate.core import Gateway
from opgate.core.exec import Handler
from opgate.mcp_server import GatewayMCPServer, HttpAddress, serve_http, serve_stdio

def slow(ctx, args):
    open(sys.argv[2], "w").close()  # the call is running
    time.sleep(1.5)
    return {"tasks": [], "total": 0}

server = GatewayMCPServer(lambda *a, **k: Gateway(db_path=sys.argv[1], handlers={"onto.task.list": Handler(slow)}))
"""
"""The start of a child script (argv: workspace, marker file) whose onto.task.list marks the marker and takes 1.5 s; a test appends how it serves."""


def serve_command(db: Path, *options: str) -> list[str]:
    return [sys.executable, "-m", "opgate", "--db", str(db), "serve", *options]


def child_env() -> dict[str, str]:
    """What the server needs from our environment: the SDK's stdio client passes only a safe few variables."""
    return {name: os.environ[name] for name in ("PYTHONPATH", "OPGATE_TREE") if name in os.environ}


def stdio_params(db: Path, *options: str) -> StdioServerParameters:
    command = serve_command(db, *options)
    return StdioServerParameters(command=command[0], args=command[1:], env=child_env())


def answering(*, confirm: bool | None = None, action: str = "accept"):
    """An elicitation callback that answers every form the same way, and remembers the messages it was shown."""
    shown: list[str] = []

    async def callback(context: Any, params: Any) -> types.ElicitResult:
        shown.append(params.message)
        content = {"confirm": confirm} if action == "accept" and confirm is not None else None
        return types.ElicitResult(action=action, content=content)

    callback.shown = shown  # type: ignore[attr-defined]
    return callback


@asynccontextmanager
async def connect(target: StdioServerParameters | str, era: str = "2026-07-28", **options: Any) -> AsyncIterator[Client]:
    """The SDK's client on ``target`` (stdio parameters or an HTTP URL), in the given protocol era."""
    mode = "legacy" if era == "legacy" else era
    async with Client(target, mode=mode, read_timeout_seconds=CALL_TIMEOUT, **options) as client:
        yield client


class HttpServer:
    """``opgate serve --http 127.0.0.1:0`` in a subprocess; the port is read from its first line on stderr."""

    def __init__(self, db: Path, *options: str):
        self.command = serve_command(db, "--http", "127.0.0.1:0", *options)
        self.stderr_lines: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.url = ""
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> HttpServer:
        self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=os.environ | child_env())
        self._drainer = threading.Thread(target=self._drain, daemon=True)
        self._drainer.start()
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not self.url:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                self.stop()
                raise RuntimeError(f"the HTTP server did not say where it listens within {STARTUP_TIMEOUT} s:\n{self.stderr}")
            if match := re.search(r"listening on (http://\S+)", line):
                self.url = match.group(1)
        self._wait_until_answering(deadline)
        return self

    def _drain(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr_lines.append(line)
            self._lines.put(line)
        self._lines.put(None)

    def _wait_until_answering(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            try:
                # A GET without a session is refused, but any HTTP answer means the app is up.
                httpx.get(self.url, timeout=2.0)
                return
            except httpx.TransportError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the HTTP server at {self.url} did not answer within {STARTUP_TIMEOUT} s:\n{self.stderr}")

    @property
    def stderr(self) -> str:
        return "".join(self.stderr_lines)

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        # Its stderr reaches its end with the process; once drained the pipe is closed here, not by the collector (a ResourceWarning).
        self._drainer.join(timeout=10)
        if self.process.stderr is not None and not self._drainer.is_alive():
            self.process.stderr.close()


class RawStdioServer:
    """``opgate serve`` over stdio, spoken to in raw bytes: for messages no SDK client would send."""

    def __init__(self, db: Path, *options: str):
        self.process = subprocess.Popen(serve_command(db, *options), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ | child_env())
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self.stdout_lines: list[bytes] = []
        self._readers = [
            threading.Thread(target=self._drain, daemon=True),
            threading.Thread(target=self.process.stderr.read, daemon=True),  # type: ignore[union-attr]
        ]
        for reader in self._readers:
            reader.start()

    def _drain(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.stdout_lines.append(line)
            self._lines.put(line)
        self._lines.put(None)

    def send(self, message: dict[str, Any] | bytes) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(data + b"\n")
        self.process.stdin.flush()

    def receive(self, timeout: float = CALL_TIMEOUT) -> dict[str, Any]:
        """The next message the server writes; every line it writes must be one JSON-RPC message."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no answer within {timeout} s") from None
        assert line is not None, "the server closed its output"
        return json.loads(line)

    def request(self, request_id: int, method: str, params: Any = None) -> dict[str, Any]:
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, **({"params": params} if params is not None else {})})
        return self.receive()

    def initialize(self) -> dict[str, Any]:
        answer = self.request(0, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def stop(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            status = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait(timeout=10)
        # The process is gone, so both pipes are at their end: the readers finish, and the pipes are closed
        # here rather than left to the garbage collector (a ResourceWarning each).
        for reader in self._readers:
            reader.join(timeout=10)
        self.process.stdout.close()  # type: ignore[union-attr]
        self.process.stderr.close()  # type: ignore[union-attr]
        return status
