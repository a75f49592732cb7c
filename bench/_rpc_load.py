"""A cheap load generator for ``opgate serve --http``: raw HTTP/1.1 JSON-RPC POSTs over asyncio streams.

The servers are what is measured, so the generator must leave them the CPU:
no HTTP library, no MCP client. Each request is a 2026-07-28 stateless
``tools/call`` (one POST, answered with one JSON body), built as bytes before
the clock starts; the generator only writes them, reads the status line, the
headers and the body, and decodes the JSON answer to check it. Each
connection is kept alive and talks to one server, so N servers with C
connections are N "upstreams" behind a round-robin balancer.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass

PROTOCOL = "2026-07-28"
_META = {"io.modelcontextprotocol/protocolVersion": PROTOCOL, "io.modelcontextprotocol/clientInfo": {"name": "opgate-bench", "version": "1"},
         "io.modelcontextprotocol/clientCapabilities": {}}


@dataclass(frozen=True)
class Target:
    host: str
    port: int
    path: str = "/mcp"

    @classmethod
    def from_url(cls, url: str) -> Target:
        rest = url.split("://", 1)[1]
        netloc, _, path = rest.partition("/")
        host, _, port = netloc.rpartition(":")
        return cls(host, int(port), "/" + path)


def exec_request(target: Target, token: str | None, op: str, args: dict, *, idempotency_key: str | None = None, rpc_id: int = 1) -> bytes:
    """The whole HTTP request of one ``exec`` tools/call, as bytes."""
    arguments: dict = {"op": op, "args": args}
    if idempotency_key is not None:
        arguments["idempotency_key"] = idempotency_key
    body = json.dumps({"jsonrpc": "2.0", "id": rpc_id, "method": "tools/call",
                       "params": {"name": "exec", "arguments": arguments, "_meta": _META}}, separators=(",", ":")).encode()
    lines = [f"POST {target.path} HTTP/1.1", f"Host: {target.host}:{target.port}", "Content-Type: application/json",
             "Accept: application/json, text/event-stream", f"Mcp-Protocol-Version: {PROTOCOL}", "Mcp-Method: tools/call",
             "Mcp-Name: exec", f"Content-Length: {len(body)}"]
    if token:
        lines.append(f"Authorization: Bearer {token}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


@dataclass
class Answer:
    """One request's outcome: HTTP status, the exec envelope (``None`` if there was none) and the latency."""

    status: int
    envelope: dict | None
    seconds: float

    @property
    def ok(self) -> bool:
        return self.status == 200 and bool(self.envelope and self.envelope.get("ok"))


class Connection:
    """One keep-alive HTTP/1.1 connection to one server."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, target: Target) -> Connection:
        reader, writer = await asyncio.open_connection(target.host, target.port)
        return cls(reader, writer)

    async def send(self, request: bytes) -> tuple[int, bytes]:
        self.writer.write(request)
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
        if "content-length" in headers:
            return status, await self.reader.readexactly(int(headers["content-length"]))
        if headers.get("transfer-encoding", "").lower() == "chunked":
            return status, await self._chunked()
        raise RuntimeError(f"an answer with neither Content-Length nor chunks: {head[:200]!r}")

    async def _chunked(self) -> bytes:
        parts = []
        while True:
            size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await self.reader.readuntil(b"\r\n")
                return b"".join(parts)
            parts.append(await self.reader.readexactly(size))
            await self.reader.readexactly(2)

    def close(self) -> None:
        self.writer.close()


def envelope_of(body: bytes) -> dict | None:
    """The exec envelope inside a tools/call answer (JSON, or the last event of a server-sent stream)."""
    text = body.decode()
    if text.startswith(("event:", "data:", ":")):
        text = [line[5:].strip() for line in text.splitlines() if line.startswith("data:")][-1]
    message = json.loads(text)
    result = message.get("result") or {}
    return result.get("structuredContent")


@dataclass
class LoadRun:
    """Answers in request order, the wall time, and the generator's own CPU seconds."""

    answers: list[Answer]
    wall: float
    generator_cpu: float

    @property
    def throughput(self) -> float:
        return len(self.answers) / self.wall

    @property
    def ok_count(self) -> int:
        return sum(a.ok for a in self.answers)

    def latencies_ms(self) -> list[float]:
        return [a.seconds * 1000 for a in self.answers]


async def run_load(targets: Sequence[Target], requests: Sequence[Sequence[bytes]], concurrency: int) -> LoadRun:
    """Send ``requests[i]`` (one prebuilt request per target) with ``concurrency`` connections spread over the targets.

    Connection ``c`` talks to ``targets[c % len(targets)]`` and takes the
    next unsent request each time it is free, so a faster server simply
    answers more of them.
    """
    connections = [await Connection.open(targets[c % len(targets)]) for c in range(concurrency)]
    answers: list[Answer | None] = [None] * len(requests)
    pending = iter(range(len(requests)))

    async def worker(c: int) -> None:
        conn, slot = connections[c], c % len(targets)
        for i in pending:
            started = time.perf_counter()
            status, body = await conn.send(requests[i][slot])
            seconds = time.perf_counter() - started
            answers[i] = Answer(status, envelope_of(body) if status == 200 else None, seconds)

    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(worker(c) for c in range(concurrency)))
    run = LoadRun([a for a in answers if a is not None], time.perf_counter() - wall, time.process_time() - cpu)
    for conn in connections:
        conn.close()
    return run


async def burst(targets: Sequence[Target], make_request, count: int, *, retries: int = 5) -> tuple[list[Answer], int, float]:
    """``count`` requests at once, each on its own connection (opened first), spread over the targets.

    A retryable answer (the store busy) is sent again, as a client with an
    idempotency key is told to; returns the final answers, how many retries
    were sent, and the wall time.
    """
    slots = list(itertools.islice(itertools.cycle(range(len(targets))), count))
    connections = await asyncio.gather(*(Connection.open(targets[s]) for s in slots))
    retried = 0

    async def one(conn: Connection, slot: int) -> Answer:
        nonlocal retried
        for attempt in range(retries + 1):
            started = time.perf_counter()
            status, body = await conn.send(make_request(targets[slot]))
            answer = Answer(status, envelope_of(body) if status == 200 else None, time.perf_counter() - started)
            error = (answer.envelope or {}).get("error") or {}
            if answer.ok or not error.get("retryable") or attempt == retries:
                return answer
            retried += 1
        raise AssertionError("unreachable")

    wall = time.perf_counter()
    answers = await asyncio.gather(*(one(conn, slot) for conn, slot in zip(connections, slots)))
    wall = time.perf_counter() - wall
    for conn in connections:
        conn.close()
    return list(answers), retried, wall


def process_cpu(pid: int) -> float:
    """User + system CPU seconds a process has used so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    idle = values[3] + values[4]
    total = sum(values[:8])
    tick = os.sysconf("SC_CLK_TCK")
    return (total - idle) / tick, total / tick
