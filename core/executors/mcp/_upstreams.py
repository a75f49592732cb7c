"""The configured upstream MCP servers of a gateway: connections, listings, pins and state.

Nothing connects when an :class:`Upstreams` is made. The gateway calls
:meth:`Upstreams.ensure_listed` the first time help, search, exec or batch
needs the registry: every configured server is started and listed in
parallel, for at most ``list_timeout_s``. A server that is slower keeps
starting in the background and its ops appear when it answers; one that
fails is tried again on a later call, after a backoff. Each listing is
reviewed against the pins (see :mod:`._pins`), becomes ops under the
server's name, and every listener (the gateway, which swaps in a new
registry) is told. A ``notifications/tools/list_changed`` from a server, and
every restart of it, lists it again.
"""

from __future__ import annotations

import asyncio
import statistics
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ...catalog._mcp import parse_mcp_tools
from ...catalog._sources import CatalogLoad
from ...catalog._tool import LoadProblem
from ...exec._confirm import Asker
from ...exec._errors import InternalError, PermissionDenied
from .._progress import ProgressReporter, abandoned_event, progress_reporter
from .._redact import redact
from ._config import UpstreamConfig, load_upstream_configs
from ._loop import LoopThread
from ._guards import guarded_tool, refused_problems, review_problems, unknown_named
from ._pins import PinReview, approvals, review
from ._protocol_error import protocol_error
from ._results import breaks_output_schema
from ._questions import CallAbandoned, PendingCall, QuestionRouter
from ._shadowing import shadowing_problems
from ._upstream_state import Listing, Upstream

DEFAULT_LIST_TIMEOUT_S = 15.0


class Upstreams:
    """Every configured upstream MCP server, on one event loop thread. Thread-safe."""

    def __init__(self, configs: Iterable[UpstreamConfig], *, list_timeout_s: float = DEFAULT_LIST_TIMEOUT_S):
        self._upstreams = {config.name: Upstream(config) for config in configs}
        self.list_timeout_s = list_timeout_s
        self._loop = LoopThread()
        self._lock = threading.Lock()
        self._listeners: list[Callable[[], None]] = []
        self._store_provider: Callable[[], Any] | None = None
        self._version = 0
        self._built: tuple[int, Any] | None = None
        self._background: set[asyncio.Task[Any]] = set()
        self._closed = False

    @classmethod
    def from_files(cls, paths: Iterable[str | Path], *, configured: Any = None, configured_source: str = "opgate.toml", **options: Any) -> Upstreams:
        """Upstreams from MCP client configuration files, and the MCP upstreams of opgate.toml
        (``configured``); :class:`UpstreamConfigError` lists every problem."""
        return cls(load_upstream_configs(paths, configured=configured, configured_source=configured_source), **options)

    @property
    def names(self) -> list[str]:
        return list(self._upstreams)

    def config(self, name: str) -> UpstreamConfig:
        return self._upstreams[name].config

    def __len__(self) -> int:
        return len(self._upstreams)

    # -- who listens -------------------------------------------------------------------

    def attach(self, store_provider: Callable[[], Any], listener: Callable[[], None]) -> None:
        """A gateway: the workspace that keeps the pins (the first one attached), and a callback for new listings."""
        with self._lock:
            if self._store_provider is None:
                self._store_provider = store_provider
            self._listeners.append(listener)

    @property
    def version(self) -> int:
        """Changes whenever a listing (or its review) changes."""
        return self._version

    # -- listing ---------------------------------------------------------------------------

    def ensure_listed(self, timeout: float | None = None) -> None:
        """List every upstream that has no listing yet, in parallel, waiting at most ``timeout`` seconds."""
        if self._closed:
            return
        waiting = [up for up in self._upstreams.values() if up.listing is None]
        if not waiting:
            return
        futures = [self._start_listing(up) for up in waiting]
        deadline = time.monotonic() + (self.list_timeout_s if timeout is None else timeout)
        for future in futures:
            try:
                future.result(max(0.0, deadline - time.monotonic()))
            except Exception:  # recorded on the upstream; the others still count
                pass

    def _start_listing(self, up: Upstream):
        with self._lock:
            if up.listing_task is None or up.listing_task.done():
                up.listing_task = self._loop.submit(self._list(up))
            return up.listing_task

    async def _list(self, up: Upstream) -> None:
        # Every listing in flight is known to close(), which cancels and awaits it: one left running
        # past the loop's end would hand work to an executor that is already shut down.
        task = asyncio.current_task()
        if task is not None:
            self._background.add(task)
        try:
            connection = self._connection(up)
            try:
                tools = await connection.list_tools(self.list_timeout_s)
            except Exception as exc:
                up.list_error = _text(exc)
                raise
            pins_review = await asyncio.to_thread(self._review, up.config.name, tools)
            up.listing, up.list_error = Listing(tools, pins_review, connection.starts, list(connection.refused_tools)), None
            self._changed()
        finally:
            if task is not None:
                self._background.discard(task)

    def _review(self, name: str, tools: list[dict[str, Any]]) -> PinReview:
        store = self._store()
        if store is None:  # no workspace: nothing to compare with, so nothing is held back
            return PinReview(first=True)
        with store.read() as tx:
            pins = tx.upstream_pins(name)
        result = review(pins, tools)
        if result.to_pin:
            with store.write() as tx:
                tx.pin_upstream_tools(name, result.to_pin)
        return result

    def _store(self) -> Any:
        return self._store_provider() if self._store_provider is not None else None

    def _changed(self) -> None:
        with self._lock:
            self._version += 1
            listeners = list(self._listeners)
        for listener in listeners:
            listener()

    def _connection(self, up: Upstream):
        if up.connection is None:
            from ._connection import Connection

            name = up.config.name
            up.connection = Connection(up.config, on_tools_changed=lambda: self._relist_soon(up), questions=QuestionRouter(name, up.config.secrets))
        return up.connection

    async def _relist_soon(self, up: Upstream) -> None:
        # A server may say its tools changed a thousand times in a row: each said once started its own listing and registry
        # rebuild. A relisting that has not started yet will see this change too; one running may not, so one more waits.
        if up.relist_waiting:
            return
        up.relist_waiting = True
        # Not awaited in the notification handler: listing there would wait on the loop that reads the answer.
        task = asyncio.get_running_loop().create_task(self._relist(up))
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        # Nobody awaits a relisting: its failure is already kept in up.list_error.
        task.add_done_callback(lambda done: done.cancelled() or done.exception())

    async def _relist(self, up: Upstream) -> None:
        async with up.relisting:
            up.relist_waiting = False
            await self._list(up)

    # -- the registry part ---------------------------------------------------------------

    def loads(self) -> tuple[list[CatalogLoad], list[LoadProblem], dict[str, str]]:
        """The upstreams' tools as catalogue loads, the problems found, and a summary per namespace."""
        loads, summaries = [], {}
        problems: list[LoadProblem] = []
        for name, up in self._upstreams.items():
            source = f"upstream {name} ({up.config.source})"
            summaries[name] = f"Tools of the upstream MCP server {name!r} ({up.config.where})."
            if up.listing is None:
                if up.list_error:
                    problems.append(LoadProblem(source, f"could not be listed: {self._redacted(name, up.list_error)}; its ops appear once it answers (see `opgate upstreams`)", severity="warning"))
                continue
            tools, found = parse_mcp_tools(up.listing.tools, source=source, namespace=name, upstream=name)
            problems += found + unknown_named(source, up.config, tools) + refused_problems(source, up.listing.refused)
            loads.append(CatalogLoad(source, name, [guarded_tool(up.config, up.listing.review, tool) for tool in tools]))
            problems += review_problems(source, name, up.listing.review)
        problems += shadowing_problems({name: up.listing.tools for name, up in self._upstreams.items() if up.listing is not None})
        return loads, problems, summaries

    # -- calls ---------------------------------------------------------------------------

    def is_trusted_read(self, name: str, tool: str) -> bool:
        """Whether a dry-run may really send this call: the tool says it only reads, and its server is trusted."""
        up = self._upstreams.get(name)
        if up is None or up.listing is None:
            return False
        if tool in up.config.reads:
            return True
        if not up.config.trust_annotations:
            return False
        found = next((t for t in up.listing.tools if t.get("name") == tool), None)
        return bool(found and (found.get("annotations") or {}).get("readOnlyHint") is True)

    def unavailable(self, name: str) -> str | None:
        """A sentence saying that upstream ``name`` offers no ops now and why (it failed to start or to list), for help
        and exec's not-found answers; ``None`` when it is listed, or is not an upstream."""
        up = self._upstreams.get(name)
        if up is None or up.listing is not None:
            return None
        connection = up.connection
        error = up.list_error or (connection.last_error if connection is not None else None)
        why = self._redacted(name, error) if error else "it has not answered its first listing yet"
        return f"The upstream {name!r} is unavailable: {why}. Its ops appear once it answers; retry later (`opgate upstreams` shows its state)."

    def unlisted(self) -> list[dict[str, str]]:
        """The upstreams that offer no ops now (not started, starting, failed), each with its state and why, for help's root."""
        lines = []
        for name, up in self._upstreams.items():
            if up.listing is not None:
                continue
            connection = up.connection
            state = connection.state if connection is not None else "not connected"
            error = up.list_error or (connection.last_error if connection is not None else None)
            lines.append({"name": name, "state": state, "why": self._redacted(name, error) if error else "it has not answered its first listing yet"})
        return lines

    def secrets(self, name: str) -> tuple[str, ...]:
        up = self._upstreams.get(name)
        return up.config.secrets if up is not None else ()

    def call(self, name: str, tool: str, arguments: dict[str, Any], *, op: str, timeout_s: float, asker: Asker | None) -> Any:
        """``tools/call`` from the caller's thread; answers the upstream's questions through ``asker`` meanwhile."""
        from mcp.shared.exceptions import MCPError

        from ._connection import AnswerTooLarge, CallTimedOut, UpstreamDown
        from ._unreadable import AnswerUnreadable

        up = self._upstreams[name]
        if self._loop.in_loop():
            raise InternalError(f"{op} cannot be called from the upstream loop itself", retryable=False)
        pending = PendingCall(op, name, asker, _masking(progress_reporter(), up.config.secrets), abandoned_event())
        started = time.perf_counter()
        future = self._loop.submit(self._call(up, tool, arguments, timeout_s, pending))
        try:
            # The loop enforces the timeout; this guard only covers a loop that stopped answering.
            answer = pending.wait(future, self._loop.loop, timeout_s + 5.0)
        except CallAbandoned:
            raise InternalError(f"{op} was cancelled by its caller; upstream {name!r} was told to stop (it may have done part of the work)", retryable=False, upstream=name, cancelled=True) from None
        except (CallTimedOut, TimeoutError):
            raise InternalError(f"{op} on upstream {name!r} did not finish within {timeout_s:.3g} s; the request was cancelled", retryable=True, upstream=name) from None
        except UpstreamDown as exc:
            raise InternalError(self._redacted(name, str(exc)), retryable=True, upstream=name) from None
        except (AnswerTooLarge, AnswerUnreadable) as exc:
            raise InternalError(str(exc), retryable=False, upstream=name) from None
        except (PermissionDenied, InternalError):
            raise
        except MCPError as exc:
            raise protocol_error(exc, op, name, self._redacted(name, exc.message)) from None
        except Exception as exc:
            broken = breaks_output_schema(exc, name, op, self._redacted(name, _text(exc)))
            raise broken or InternalError(self._redacted(name, f"{op} on upstream {name!r} failed: {_text(exc)}"), retryable=True, upstream=name) from None
        up.latencies_ms.append((time.perf_counter() - started) * 1000)
        return answer

    async def _call(self, up: Upstream, tool: str, arguments: dict[str, Any], timeout_s: float, pending: PendingCall) -> Any:
        connection = self._connection(up)
        started = time.monotonic()
        await connection.open(timeout_s)
        if up.listing is None or up.listing.at_start != connection.starts:
            # A new server process may offer other tools: review them before anything runs.
            await self._list(up)
        held = up.listing.review.quarantined.get(tool) if up.listing else None
        if held is not None:
            raise PermissionDenied(f"{tool} on upstream {up.config.name!r} is quarantined: its definition changed; approve it with `opgate upstreams approve {up.config.name} {tool}`", runnable=False)
        return await connection.call_tool(tool, arguments, max(0.0, timeout_s - (time.monotonic() - started)), pending)

    # -- approval --------------------------------------------------------------------------

    def approve(self, name: str, tool: str | None = None) -> dict[str, Any]:
        """Pin what upstream ``name`` offers now (``tool``, or every held-back tool) and forget removed ones."""
        up = self._upstreams.get(name)
        if up is None:
            raise KeyError(f"no upstream named {name!r}; configured: {', '.join(self._upstreams) or 'none'}")
        self.ensure_listed()
        if up.listing is None:
            raise RuntimeError(f"upstream {name!r} could not be listed ({self._redacted(name, up.list_error or 'no answer')}), so there is nothing to approve")
        held = up.listing.review
        if tool is not None and tool not in held.quarantined and tool not in held.removed:
            raise KeyError(f"{tool!r} of upstream {name!r} is not held back; held back: {', '.join(held.quarantined) or 'nothing'}")
        to_pin, to_drop = approvals(up.listing.tools, held, tool)
        store = self._store()
        if store is not None:
            with store.write() as tx:
                tx.pin_upstream_tools(name, to_pin)
                tx.unpin_upstream_tools(name, to_drop)
        for approved in to_pin:
            held.quarantined.pop(approved, None)
        held.removed = [r for r in held.removed if r not in to_drop]
        self._changed()
        return {"upstream": name, "approved": sorted(to_pin), "forgotten": sorted(to_drop)}

    # -- state ---------------------------------------------------------------------------

    def status(self) -> list[dict[str, Any]]:
        """One line per upstream for `opgate upstreams`: state, protocol, tools, held-back tools, last error, latency."""
        lines = []
        for name, up in self._upstreams.items():
            connection = up.connection
            state = connection.state if connection is not None else "not connected"
            error = (connection.last_error if connection is not None else None) or up.list_error
            latencies = list(up.latencies_ms)
            listing = up.listing
            lines.append({
                "name": name,
                "transport": up.config.transport,
                "where": self._redacted(name, up.config.where),
                "state": state,
                "protocol_version": connection.protocol_version if connection is not None else None,
                "server": connection.server_name if connection is not None else None,
                "tools": len(listing.tools) if listing else None,
                "quarantined": [q.to_dict() for q in listing.review.quarantined.values()] if listing else [],
                "removed": list(listing.review.removed) if listing else [],
                "trust_annotations": up.config.trust_annotations,
                "confirm": up.config.confirm if isinstance(up.config.confirm, str) else list(up.config.confirm),
                "reads": list(up.config.reads),
                "last_error": self._redacted(name, error) if error else None,
                "median_latency_ms": round(statistics.median(latencies), 2) if latencies else None,
                "calls": len(latencies),
            })
        return lines

    def _redacted(self, name: str, text: str) -> str:
        return redact(text, self.secrets(name))

    # -- closing -----------------------------------------------------------------------

    def close(self) -> None:
        """Close every session and stop every server this hub started, then the loop."""
        self._closed = True
        if not self._loop.running:
            return

        async def close_all() -> None:
            running = [task for task in self._background if not task.done()]
            for task in running:
                task.cancel()
            await asyncio.gather(*running, return_exceptions=True)
            # Asked here, on the loop, after the listings stopped: a listing submitted just before close() makes its
            # connection (and starts its server) only once the loop runs it, and a start left running past the loop's
            # end had its streams closed by the garbage collector, printing tracebacks.
            connections = [up.connection for up in self._upstreams.values() if up.connection is not None]
            await asyncio.gather(*(c.close() for c in connections), return_exceptions=True)

        try:
            self._loop.submit(close_all()).result(30.0)
        except Exception:  # closing must finish; the loop stops either way
            pass
        self._loop.stop()


def _masking(report: ProgressReporter | None, secrets: tuple[str, ...]) -> ProgressReporter | None:
    """``report`` with the upstream's configured secrets masked in each message, as they are in the call's answer."""
    if report is None or not secrets:
        return report

    def masked(progress: float, total: float | None, message: str | None) -> None:
        report(progress, total, redact(message, secrets) if message else message)

    return masked


def _text(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__

