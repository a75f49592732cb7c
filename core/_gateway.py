"""The one front door: every front end (CLI, REPL, explorer, MCP server) calls a Gateway."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ._builtin import builtin_catalog_loads, builtin_contexts
from ._scopes import ALL_CONTEXTS, ContextTable
from .access import acting_as, current_caller
from .catalog._sources import CatalogLoad, load_catalog
from .config._model import OpgateConfig
from .exec._batch import BatchRunner
from .exec._confirm import Approver, Asker
from .exec._handler import Handler
from .exec._session import Session
from .exec._telemetry import CallLog
from .executors import Executors, StoreExecutor
from .help._service import HelpService
from .executors._defaults import default_executors, guard_builtin_ops
from .registry._build import build_registry
from .registry._registry import Registry
from .settings import GatewaySettings
from .telemetry import CallEvent
from .telemetry._recorder import Telemetry, made_in_this_call
from .telemetry._surfaced import batch_outcome, help_surfaced, search_surfaced

def _registry_cache(config: OpgateConfig):
    from .cache import RegistryCache

    return RegistryCache.configured(config.cache_dir)


# "default": the pure-Python ranker; "semantic": fused with sentence embeddings (the opgate[semantic] extra).
SEARCH_RANKERS = ("default", "semantic")


class Gateway:
    """help, exec and batch over a registry of ops, seen through one context scope.

    ``Gateway()`` serves the built-in catalogue on the default workspace
    database (opened on first use, with the demo workspace when new);
    ``db_path`` or ``store`` choose another. :meth:`from_catalogs` builds one
    from catalogue files. ``context`` names a context scope (``None``: every op
    is visible). Writes need ``allow_write``; ops that need confirmation ask
    ``approver``. No method raises for a bad call: answers are envelopes.

    ``upstreams`` (an :class:`~opgate.core.executors.mcp.Upstreams`) puts
    upstream MCP servers behind the gateway, each under its own namespace.
    Nothing connects at construction: the first help, search, exec or batch
    lists them (see docs/upstreams.md), and every later listing swaps in a
    new registry. The gateway closes the upstreams it was given.
    """

    def __init__(
        self,
        registry: Registry | None = None,
        *,
        context: str | None = None,
        contexts: ContextTable | None = None,
        db_path: str | Path | None = None,
        store: Any = None,
        allow_write: bool = False,
        approver: Approver | None = None,
        settings: GatewaySettings | None = None,
        session: Session | None = None,
        handlers: dict[str, Handler] | None = None,
        call_log: bool = True,
        asker: Asker | None = None,
        executors: Executors | None = None,
        upstreams: Any = None,
        search: str = "default",
        listeners: Iterable[Callable[[CallEvent], Any]] = (),
    ):
        self._base_registry = registry if registry is not None else build_registry(builtin_catalog_loads())
        self._registry = self._base_registry
        self.contexts = contexts if contexts is not None else builtin_contexts()
        self.settings = settings or GatewaySettings()
        self.session = session or Session()
        self.allow_write = allow_write
        self.approver = approver
        self.asker = asker
        if db_path is not None and not str(db_path).strip():
            raise ValueError("db_path is empty; name a database file, or pass None for the default workspace")
        self._db_path = db_path
        self._store = store
        self._store_lock = threading.Lock()
        self._dispatcher_lock = threading.Lock()
        # One log for the gateway's life: every context switch builds a new dispatcher around it.
        self._call_log = CallLog(lambda: self.store, enabled=call_log, settings=self.settings, location=lambda: self.db_location)
        self.telemetry = Telemetry(self._call_log)
        for listener in listeners:
            self.telemetry.add_listener(listener)
        # Cheap to make: the store executor loads the built-in handler table on the first exec.
        self.executors = executors if executors is not None else default_executors(StoreExecutor(lambda: self.store, handlers, self.settings))
        self._batch_pool: ThreadPoolExecutor | None = None
        self.http_apis: dict[str, Any] = {}  # the HTTP APIs behind OpenAPI catalogues, by upstream name
        if search not in SEARCH_RANKERS:
            raise ValueError(f"search is one of {', '.join(SEARCH_RANKERS)}, not {search!r}")
        self.search_ranker = search
        self._search_index = None
        # (RegistryCache, key) when the base registry is cached: the default ranker's index is cached beside it.
        self._index_cache: tuple[Any, str] | None = None
        self._context: str | None = None
        self._requested_context = context
        self._swap_lock = threading.Lock()
        self.upstreams = upstreams
        self._upstreams_seen: int | None = None
        self.set_context(context)
        if upstreams is not None:
            self._attach(upstreams)

    @classmethod
    def from_catalogs(cls, paths: Iterable[str | Path], *, include_builtin: bool = False, config: OpgateConfig | None = None, cache: bool = True, **options: Any) -> Gateway:
        """A gateway over catalogue files or folders (``NAME=PATH`` sets a namespace).

        The registry built from them is cached on disk, keyed by the
        catalogues' content (see :mod:`opgate.core.cache`); ``cache=False``
        neither reads nor writes it.

        ``config`` adds its HTTP upstreams (``[upstreams.NAME] openapi = PATH``)
        to the catalogues and says how to reach them; an OpenAPI catalogue
        without configuration runs against its document's first server,
        without credentials.
        """
        from .cache import catalog_key

        config = config or OpgateConfig()
        paths = [*paths, *(f"{name}={upstream.openapi}" for name, upstream in config.http_upstreams.items())]
        policies = config.policies()

        def loads_of_paths() -> list[CatalogLoad]:
            loads: list[CatalogLoad] = builtin_catalog_loads() if include_builtin else []
            for path in paths:
                loads.extend(load_catalog(path, policies=policies))
            return loads

        cache = _registry_cache(config) if cache else None
        key = catalog_key(paths, include_builtin=include_builtin, policies=policies) if cache is not None else None
        if cache is not None and key is not None:
            cached = cache.load(key, lambda: guard_builtin_ops(build_registry(loads_of_paths())))
            if cached is not None:
                gateway = cls(cached, **options)
                gateway._index_cache = (cache, key)
                return gateway
        from .executors.http._upstreams import register_http_upstreams  # loads jsonschema: not on the cached path

        loads = loads_of_paths()
        gateway = cls(guard_builtin_ops(build_registry(loads)), **options)
        gateway.http_apis = register_http_upstreams(gateway.executors, loads, config.http_upstreams)
        # An OpenAPI catalogue's loads also say how to reach its API: only catalogues without one are cached.
        if cache is not None and key is not None and not any(load.http_api is not None for load in loads):
            cache.store(key, gateway.base_registry)
            gateway._index_cache = (cache, key)
        return gateway

    # -- the registry, and upstreams that change it ---------------------------------

    @property
    def registry(self) -> Registry:
        """Every op this gateway knows (upstream ones once listed; see :meth:`refresh_upstreams`)."""
        self.refresh_upstreams()
        return self._registry

    @property
    def base_registry(self) -> Registry:
        """The registry the gateway was made with, before upstream ops were added."""
        return self._base_registry

    def _attach(self, upstreams: Any) -> None:
        from .executors.mcp import McpExecutor

        self.executors.register("mcp", lambda name: McpExecutor(upstreams, name))
        upstreams.attach(lambda: self.store, self._upstreams_changed)

    def refresh_upstreams(self) -> None:
        """List the upstreams that have no listing yet: the first time waiting (bounded), later in the background."""
        upstreams = self.upstreams
        if upstreams is None:
            return
        if self._upstreams_seen is None:
            upstreams.ensure_listed()
            self._upstreams_changed()
        elif len(upstreams) and upstreams.version != self._upstreams_seen:
            self._upstreams_changed()
        else:
            upstreams.ensure_listed(timeout=0)

    def _upstreams_changed(self) -> None:
        """Swap in a registry with the upstreams' current ops: help, search and the dispatcher are rebuilt."""
        from .registry._build import build_registry as build, merge_registries

        with self._swap_lock:
            version = self.upstreams.version
            if version == self._upstreams_seen:
                return
            loads, problems, summaries = self.upstreams.loads()
            extra = build(loads, group_summaries=summaries)
            extra.problems.extend(problems)
            self._registry = merge_registries(self._base_registry, extra)
            self._search_index = None
            self._upstreams_seen = version
            self.set_context(self._requested_context)

    # -- the workspace ---------------------------------------------------------

    @property
    def store(self) -> Any:
        """The workspace store, opened on first use."""
        if self._store is None:
            with self._store_lock:
                if self._store is None:
                    from .store import open_store

                    self._store = open_store(self._db_path)
        return self._store

    @property
    def db_location(self) -> str:
        if self._store is not None:
            return str(getattr(self._store, "location", self._db_path or ""))
        from .store import default_path

        return str(default_path() if self._db_path is None else self._db_path)

    def close(self) -> None:
        """Finish the batch workers, write the queued call-log entries, and close the store."""
        if self._batch_pool is not None:
            self._batch_pool.shutdown(wait=True)
            self._batch_pool = None
        self.executors.close()
        if self.upstreams is not None:
            self.upstreams.close()
        self._call_log.close()
        if self._store is not None:
            self._store.close()

    # -- scope -------------------------------------------------------------------

    @property
    def context(self) -> str | None:
        return self._context

    def set_context(self, context: str | None) -> None:
        """Switch the context scope; which ops exist changes with it."""
        visible = self.contexts.visibility(context)
        self._requested_context = context
        # The private registry: set_context runs inside an upstream swap, which holds its lock.
        self._help = HelpService(self._registry, visible)
        self._dispatcher_for = context
        self._built_dispatcher = None
        self._visible = visible
        self._context = None if context == ALL_CONTEXTS else context

    @property
    def _dispatcher(self):
        """The exec path, built on the first exec: it loads the handlers and the validator
        (jsonschema), which help and search never need."""
        dispatcher = self._built_dispatcher
        if dispatcher is None:
            with self._dispatcher_lock:
                if self._built_dispatcher is None:
                    from .exec._dispatcher import Dispatcher

                    self._built_dispatcher = Dispatcher(
                        self._registry,
                        store_provider=lambda: self.store,
                        executors=self.executors,
                        visible=self._visible,
                        settings=self.settings,
                        telemetry=self.telemetry,
                        context=self._dispatcher_for,
                    )
                dispatcher = self._built_dispatcher
        return dispatcher

    def is_visible(self, op: str) -> bool:
        record = self.registry.get(op)
        return record is not None and self._visible(record)

    @property
    def help_tree(self):
        """The namespace tree of the visible ops (for browsers such as the explorer)."""
        self.refresh_upstreams()
        return self._help.tree

    # -- the gateway calls ----------------------------------------------------------

    def help(
        self, path: str | None = "", format: str = "short", include_examples: bool = True, include_schemas: bool = False, cursor: str | None = None,
    ) -> dict[str, Any]:
        """Help for a path: the root, a group, ``<group>.read`` / ``.write``, or an op.

        A root or group answer over 4 KB is paged: ``page.next_cursor`` goes back in ``cursor``.
        """
        with self.telemetry.step("help", self.current_session, path) as step:
            self.refresh_upstreams()
            answer = self._help.help(path, format=format, include_examples=include_examples, include_schemas=include_schemas, cursor=cursor)
            subject, surfaced = help_surfaced(answer)
            step.answered(answer, subject=subject, surfaced=surfaced, type=answer.get("type"))
        return answer

    def exec(
        self, op: Any, args: Any = None, idempotency_key: str | None = None, dry_run: bool = False, *,
        state_digest: str | None = None, id_seed: str | None = None, session: Session | None = None,
    ) -> dict[str, Any]:
        """Run an op (or dry-run it) and answer with the success or error envelope.

        ``state_digest`` is the digest a dry-run returned: if the state it read
        has changed since, the real run fails with CONFLICT. ``id_seed`` is the
        ``meta.id_seed`` a dry-run returned: the real run then creates the very
        ids that dry-run's diff showed (any string of 8 to 128 characters
        chosen before the dry-run works the same way). ``session`` is the
        caller's own :class:`Session` when one gateway serves several callers
        (remembered ids, idempotency scope); by default, the gateway's.
        """
        self.refresh_upstreams()
        caller = current_caller()
        if caller is None:
            return self._dispatcher.exec(
                op, args, session=session or self.session, allow_write=self.allow_write, approver=self.approver,
                idempotency_key=idempotency_key, dry_run=dry_run, state_digest=state_digest, asker=self.asker, id_seed=id_seed,
            )
        # A caller of a shared server: its role narrows what this gateway allows, never widens it.
        return self._dispatcher.exec(
            op, args, session=session or caller.session or self.session, allow_write=self.allow_write and caller.may_write,
            approver=self.approver if caller.may_confirm else None, idempotency_key=idempotency_key, dry_run=dry_run,
            state_digest=state_digest, asker=self.asker, caller=caller, id_seed=id_seed,
        )

    @property
    def current_session(self) -> Session:
        """The session of the caller being served (see :func:`~opgate.core.access.acting_as`), else the gateway's own."""
        caller = current_caller()
        return caller.session if caller is not None and caller.session is not None else self.session  # type: ignore[return-value]

    def batch(self, steps: Any, on_error: str = "stop", *, session: Session | None = None) -> list[dict[str, Any]]:
        """Run help and exec steps in one call; one envelope per step, in order (``session`` as for exec)."""
        with self.telemetry.step("batch", session or self.current_session, wraps=True) as logged:
            self.refresh_upstreams()
            caller = current_caller()

            def exec_for_caller(*call: Any, **options: Any) -> dict[str, Any]:
                # Read steps run on pool threads, which do not inherit the caller's context.
                with acting_as(caller):
                    return self.exec(*call, session=session, **options)

            runner = BatchRunner(
                # Steps on the pool's threads are logged as this batch's all the same.
                help_fn=made_in_this_call(self.help),
                exec_fn=made_in_this_call(exec_for_caller),
                is_read=lambda op: isinstance(op, str) and (r := self.registry.resolve(op)) is not None and r.kind == "read",
                max_steps=self.settings.batch_max_steps,
                pool=self._pool(),
            )
            answers = runner.run(steps, on_error)
            ok, code, counts = batch_outcome(answers)
            logged.done(ok, code, **counts)
        return answers

    def search(self, query: str, *, path: str | None = None, kind: str | None = None, limit: int = 10, cursor: str | None = None) -> dict[str, Any]:
        """Natural-language search over the visible ops: ranked pointers with a confidence in [0, 1].

        Answers ``{"ok": true, "query", "results": [{op, tool_name, summary,
        kind, confidence}], "next_cursor"}``; a path that does not exist, or
        one with no match, is an error with hints and the next action.
        """
        from .discovery._search_answer import search_answer

        with self.telemetry.step("search", self.current_session, query) as step:
            answer = search_answer(self, query, path=path, kind=kind, limit=limit, cursor=cursor)
            step.answered(answer, surfaced=search_surfaced(answer), new_chain=True, path=path if isinstance(path, str) else None, results=len(answer.get("results") or []))
        return answer

    def search_hits(self, query: str, *, path: str | None = None, kind: str | None = None, limit: int = 10, offset: int = 0, min_confidence: float = 0.0) -> list:
        """The ranked hits (``SearchHit``) for the visible ops, down to ``min_confidence``."""
        self.refresh_upstreams()
        hits = self.search_index.search(query, limit=limit, offset=offset, path=path, kind=kind, visible=self._visible)
        return [hit for hit in hits if hit.confidence >= min_confidence]

    def search_node_hits(self, query: str, *, limit: int = 10) -> list:
        """Groups (``NodeHit``) whose visible ops match ``query`` best."""
        self.refresh_upstreams()
        return self.search_index.search_nodes(query, limit=limit, visible=self._visible)

    @property
    def search_index(self):
        """The search index over the whole registry, built on first use (visibility is applied per query)."""
        index = self._search_index
        if index is None:
            with self._store_lock:
                index = self._search_index
                if index is None:
                    from .search import SearchIndex

                    registry = self.registry
                    cached = self._index_cache if registry is self._base_registry and self.search_ranker == "default" else None
                    index = cached[0].load_index(cached[1], registry) if cached else None
                    if index is None:
                        index = SearchIndex.build(registry, semantic=self.search_ranker == "semantic", group_summaries=registry.group_summaries)
                        if cached:
                            cached[0].store_index(cached[1], index)
                    self._search_index = index
        return index

    @property
    def discovery(self):
        """The discovery protocol (list, search_tool_by_category, search_nodes, expand_tool, call_tool)."""
        return self.discovery_for(None)

    def discovery_for(self, session: Session | None):
        """The discovery protocol for one caller: its ``call_tool`` runs in ``session``."""
        from .discovery import Discovery

        return Discovery(self, session=session)

    def help_closest_paths(self, path: str, limit: int = 3) -> list[str]:
        return self._help.closest_paths(path, limit)

    def id_choices(self, argument: str, text: str = "", *, project_id: str | None = None, limit: int = 20, moving: str | None = None) -> list:
        """Stored entities that can fill an id argument (``project_id`` -> the projects, by name).

        ``moving``: the document a move is about, left out (with what is under it) of its new-parent choices.
        """
        from ._id_choices import id_choices

        return id_choices(self.store, argument, text, project_id=project_id, limit=limit, moving=moving)

    def _pool(self) -> ThreadPoolExecutor:
        with self._store_lock:
            if self._batch_pool is None:
                self._batch_pool = ThreadPoolExecutor(max_workers=self.settings.batch_concurrency, thread_name_prefix="opgate-batch")
            return self._batch_pool

    def recent_calls(self, limit: int = 50) -> list[dict[str, Any]]:
        """The newest exec entries of the call log, across sessions (this gateway's queued ones written first)."""
        return self._call_log.recent(limit)

    # -- telemetry ---------------------------------------------------------------------

    def add_listener(self, listener: Callable[[CallEvent], Any]) -> Callable[[], None]:
        """Call ``listener(event)`` with a :class:`~opgate.core.telemetry.CallEvent` after every call.

        Listeners run in the calling thread once the answer is ready; an
        exception from one is logged and never reaches the caller. Returns a
        function that removes the listener.
        """
        return self.telemetry.add_listener(listener)

    def remove_listener(self, listener: Callable[[CallEvent], Any]) -> None:
        self.telemetry.remove_listener(listener)

    def call_log_since(self, since: str | None = None, *, limit: int = 100_000) -> list[dict[str, Any]]:
        """Call-log entries of every kind from ``since`` (``YYYY-MM-DDTHH:MM:SSZ``) on, oldest first."""
        return self._call_log.since(since, limit=limit)
