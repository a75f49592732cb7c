"""What a held session runs on: its read stream watched for the server's exit, its HTTP client, its stderr's sink."""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import Any

import anyio


@contextlib.asynccontextmanager
async def watch_end(read: Any, stop: asyncio.Event):
    """The transport's read stream, passed through; when it ends (the server exited), ``stop`` is set."""
    send, receive = anyio.create_memory_object_stream[Any](0)

    async def forward() -> None:
        try:
            async with send:
                async for item in read:
                    await send.send(item)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            pass
        finally:
            stop.set()

    async with anyio.create_task_group() as group:
        group.start_soon(forward)
        try:
            yield receive
        finally:
            group.cancel_scope.cancel()


@contextlib.asynccontextmanager
async def owning(client: Any, transport: Any):
    """The HTTP transport with the client that carries the configured headers, closed with it."""
    async with client:
        async with transport as streams:
            yield streams


_sinks: dict[str, Any] = {}


def stderr_sink():
    """Where a stdio server's own log goes: discarded unless OPGATE_UPSTREAM_STDERR names a file.

    A server's stderr is not ours to print (it may echo its environment), and
    on ``opgate serve`` over stdio our own stdout and stderr belong to others.
    One handle per path for the process: restarts must not leak descriptors.
    """
    path = os.environ.get("OPGATE_UPSTREAM_STDERR") or os.devnull
    if path not in _sinks:
        _sinks[path] = open(path, "a", encoding="utf-8")  # noqa: SIM115 (kept for the process's life)
    return _sinks[path]
