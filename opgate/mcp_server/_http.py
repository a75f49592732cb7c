"""MCP over streamable HTTP, on loopback unless told otherwise.

A browser page on any site can send requests to a server on localhost; the
MCP security guidance asks servers to check ``Origin`` so that such a page
cannot drive the tools (and ``Host``, against DNS rebinding). Requests
without an Origin (every non-browser client) and from a loopback origin pass;
other origins only when listed with ``--allow-origin``. The SDK's transport
does the checking (403 for a bad Origin, 421 for a bad Host, 413 for a body
over 4 MiB); this module decides what it allows.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import uvicorn
from mcp.server.transport_security import TransportSecuritySettings
from sse_starlette.sse import AppStatus
from starlette.types import ASGIApp, Receive, Scope, Send

from ._http_access import HttpAccess, access_app, extra_hosts
from ._server import GatewayMCPServer

log = logging.getLogger(__name__)

MCP_PATH = "/mcp"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
SHUTDOWN_GRACE_S = 5.0
"""How long a stopping server waits for calls in flight to answer before it closes every stream."""


@dataclass(frozen=True)
class HttpAddress:
    host: str
    port: int

    @classmethod
    def parse(cls, text: str) -> HttpAddress:
        """``HOST:PORT``, ``[::1]:PORT``, ``:PORT`` or ``PORT``; the host defaults to 127.0.0.1."""
        host, _, port = text.rpartition(":") if ":" in text else ("", "", text)
        host = host.strip("[]") or "127.0.0.1"
        if not port.isdigit() or not 0 <= int(port) <= 65535:
            raise ValueError(f"--http takes HOST:PORT (like 127.0.0.1:8765), not {text!r}")
        return cls(host, int(port))

    @property
    def is_loopback(self) -> bool:
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False

    @property
    def url_host(self) -> str:
        return f"[{self.host}]" if ":" in self.host else self.host


def transport_security(address: HttpAddress, extra_origins: Iterable[str] = (), extra_hosts: Iterable[str] = ()) -> TransportSecuritySettings:
    """Loopback (or listed) Host names and loopback (or listed) Origins pass; a missing Origin passes too."""
    hosts = [f"{name}:*" for name in LOOPBACK_NAMES]
    if not address.is_loopback:
        hosts.append(f"{address.url_host}:*")
    hosts += extra_hosts
    origins = [f"{scheme}://{name}{port}" for scheme in ("http", "https") for name in LOOPBACK_NAMES for port in ("", ":*")]
    origins += [origin.rstrip("/") for origin in extra_origins]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins)


def bind(address: HttpAddress) -> socket.socket:
    """A listening socket, bound before serving, so port 0 works and the real port is known.

    The protocol is named (``IPPROTO_TCP``, not the default 0) because asyncio
    only turns Nagle's algorithm off on accepted connections whose listening
    socket says TCP; without it every small answer waits for the client's
    delayed ACK (a tools/call took 50.6 ms instead of 6.9 ms).
    """
    family = socket.AF_INET6 if ":" in address.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((address.host, address.port))
    sock.listen(128)
    return sock


class UnsafeBind(ValueError):
    """Serving a non-loopback address without authentication: anyone who reaches it could call the tools."""


class CallsInFlight:
    """Counts the POSTs being answered, but for subscription streams (which end only when closed).

    A stopping server waits for this count to reach zero before it ends the
    streams that only wait for events, so that no call loses its answer.
    """

    def __init__(self, app: ASGIApp):
        self.app = app
        self.count = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or (b"mcp-method", b"subscriptions/listen") in scope["headers"]:
            await self.app(scope, receive, send)
            return
        self.count += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.count -= 1


class _ClosingServer(uvicorn.Server):
    """uvicorn that closes the gateway at the end of its graceful shutdown.

    uvicorn ends that shutdown by raising again the signal that asked for it,
    and SIGTERM's default action then ends the process at once: no ``finally``
    and no ``atexit`` run after it. So what the gateway still holds (the call
    log's last queued entries, batch workers, the store) is closed here first.
    """

    def __init__(self, config: uvicorn.Config, *, on_shutdown: Callable[[], None], calls: CallsInFlight) -> None:
        super().__init__(config)
        self._on_shutdown = on_shutdown
        self._stopping_on: int | None = None
        self._calls = calls

    def handle_exit(self, sig: int, frame: Any) -> None:
        # A second ctrl+c made uvicorn skip the app's lifespan shutdown (force exit) and raise SIGINT twice
        # after it: asyncio's ending then printed a lifespan traceback. The first signal starts the graceful
        # shutdown (it ends the streams and waits only for calls running); later ones change nothing.
        if self._stopping_on is not None:
            return
        self._stopping_on = sig
        super().handle_exit(sig, frame)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        # sse_starlette would end every stream at the signal, a running call's answer with them (serve_http turns
        # that off): the streams that only wait for events end once the calls in flight have answered.
        releasing = asyncio.ensure_future(self._end_streams_after_calls())
        try:
            await super().shutdown(sockets=sockets)
        finally:
            releasing.cancel()
            AppStatus.should_exit = True
            self._on_shutdown()

    async def _end_streams_after_calls(self) -> None:
        deadline = asyncio.get_running_loop().time() + SHUTDOWN_GRACE_S
        while self._calls.count and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        AppStatus.should_exit = True


def serve_http(mcp: GatewayMCPServer, address: HttpAddress, *, allowed_origins: Iterable[str] = (), access: HttpAccess | None = None) -> None:
    """Serve until interrupted; prints the URL on standard error once listening."""
    access = access or HttpAccess(allowed_origins=tuple(allowed_origins))
    exposed = [name for name in (address.host, *access.exposed_names()) if not HttpAddress(name, 0).is_loopback]
    if exposed and not access.authenticated:
        raise UnsafeBind(
            f"refusing to serve {', '.join(exposed)}, which is not loopback, without authentication: anyone who can reach it could call the tools. "
            "Create a token (opgate token create --name NAME --role reader|writer|approver) and serve again, "
            "or bind 127.0.0.1 behind a reverse proxy that authenticates."
        )
    sock = bind(address)
    port = sock.getsockname()[1]
    local_url = f"http://{address.url_host}:{port}{MCP_PATH}"
    public_url = access.public_url or local_url
    security = transport_security(address, [*allowed_origins, *access.allowed_origins], extra_hosts(access, public_url))
    app = access_app(mcp.server, path=MCP_PATH, security=security, host=address.host, access=access, public_url=public_url)
    calls = CallsInFlight(app)
    # The streams are ended by _ClosingServer once calls in flight have answered, not by sse_starlette at the signal.
    AppStatus.disable_automatic_graceful_drain()
    AppStatus.should_exit = False
    config = uvicorn.Config(calls, log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=SHUTDOWN_GRACE_S + 1)
    server = _ClosingServer(config, on_shutdown=mcp.close, calls=calls)
    shown = "with bearer-token authentication" if access.authenticated else "without authentication"
    print(f"opgate MCP server listening on {local_url} ({shown})", file=sys.stderr, flush=True)
    server.run(sockets=[sock])
