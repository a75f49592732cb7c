"""The one front door: every front end (CLI, REPL, explorer, MCP server) calls a Gateway."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._builtin import builtin_catalog_loads, builtin_contexts
from ._scopes import ALL_CONTEXTS, ContextTable
from .access import acting_as, current_caller
from .exec._session import Session
from .exec._telemetry import CallLog
from ._gateway_catalogs import GatewayFromCatalogs
from ._gateway_search import GatewaySearch
from ._gateway_telemetry import GatewayTelemetry
from ._gateway_upstreams import GatewayUpstreams
from .registry._build import build_registry
from .registry._registry import Registry
from .settings import GatewaySettings
from .telemetry import CallEvent
from .telemetry._recorder import Telemetry, made_in_this_call
from .telemetry._surfaced import batch_outcome, help_surfaced

if TYPE_CHECKING:  # types only: the exec path (handlers, executors, batch) loads on the first exec, which help and search never run
    from concurrent.futures import ThreadPoolExecutor

    from .exec._confirm import Approver, Asker
    from .exec._handler import Handler
    from .executors import Executors
    from .help._service import HelpService

# "default": the pure-Python ranker; "semantic": fused with sentence embeddings (the opgate[semantic] extra).
SEARCH_RANKERS = ("default", "semantic")


class Gateway(GatewayFromCatalogs, GatewayUpstreams, GatewaySearch, GatewayTelemetry):
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
        # Checked before the call log opens: a gateway refused here leaves nothing open behind it.
        if search not in SEARCH_RANKERS:
            raise ValueError(f"search is one of {', '.join(SEARCH_RANKERS)}, not {search!r}")
        self._db_path = db_path
        self._store = store
        self._store_lock = threading.Lock()
        self._dispatcher_lock = threading.Lock()
        # One log for the gateway's life: every context switch builds a new dispatcher around it.
        self._call_log = CallLog(lambda: self.store, enabled=call_log, settings=self.settings, location=lambda: self.db_location)
        self.telemetry = Telemetry(self._call_log)
        for listener in listeners:
            self.telemetry.add_listener(listener)
        # Made on first use (see the executors property): the store executor loads the built-in handler table on the first exec.
        self._executors = executors
        self._handlers = handlers
        self._executors_lock = threading.Lock()
        self._batch_pool: ThreadPoolExecutor | None = None
        self.http_apis: dict[str, Any] = {}  # the HTTP APIs behind OpenAPI catalogues, by upstream name
        self.search_ranker = search
        self._search_index = None
        # (RegistryCache, key) when the base registry is cached: the default ranker's index is cached beside it.
        self._index_cache: tuple[Any, str] | None = None
        self._context: str | None = None
        self._requested_context = context
        self._swap_lock = threading.Lock()
        self.upstreams = upstreams
        self._upstreams_seen: int | None = None
        try:
            self.set_context(context)  # an unknown context is refused here
            if upstreams is not None:
                self._attach(upstreams)
        except BaseException:
            self._call_log.close()  # refused: its call log must not stay open with nothing to close it
            raise

    # -- the workspace ---------------------------------------------------------

    @property
    def executors(self) -> Executors:
        """What runs each op's binding; the default set is made on first use (help and search never need it)."""
        if self._executors is None:
            with self._executors_lock:
                if self._executors is None:
                    from .executors import StoreExecutor
                    from .executors._defaults import default_executors

                    self._executors = default_executors(StoreExecutor(self._store_now, self._handlers, self.settings))
        return self._executors

    @executors.setter
    def executors(self, executors: Executors) -> None:
        self._executors = executors

    @property
    def store(self) -> Any:
        """The workspace store, opened on first use."""
        if self._store is None:
            with self._store_lock:
                if self._store is None:
                    from .store import open_store

                    self._store = open_store(self._db_path)
        return self._store

    def _store_now(self) -> Any:
        """:attr:`store`, with one Python call instead of a lambda and the property (every read and write asks)."""
        store = self._store
        return store if store is not None else self.store

    @property
    def db_location(self) -> str:
        if self._store is not None:
            return str(getattr(self._store, "location", self._db_path or ""))
        if self._db_path is not None:
            return str(self._db_path)  # without importing the store (apsw): the explorer shows this before its first frame
        from .store import default_path

        return str(default_path())

    def close(self) -> None:
        """Finish the batch workers, write the queued call-log entries, and close the store."""
        if self._batch_pool is not None:
            self._batch_pool.shutdown(wait=True)
            self._batch_pool = None
        if self._executors is not None:
            self._executors.close()
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
        # Made on first use from the private registry (set_context runs inside an upstream swap, which holds its lock).
        self._help_service: HelpService | None = None
        self._dispatcher_for = context
        self._built_dispatcher = None
        self._visible = visible
        self._context = None if context == ALL_CONTEXTS else context

    @property
    def _help(self) -> HelpService:
        """Help over the visible ops, made when first asked: an exec never reads it (nor loads it)."""
        service = self._help_service
        if service is None:
            from .help._service import HelpService

            service = self._help_service = HelpService(self._registry, self._visible, unavailable=self._unavailable_upstream, unlisted=self._unlisted_upstreams)
        return service

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
                        store_provider=self._store_now,
                        executors=self.executors,
                        visible=self._visible,
                        settings=self.settings,
                        telemetry=self.telemetry,
                        context=self._dispatcher_for,
                        unavailable=self._unavailable_upstream,
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
        if self.upstreams is not None:  # refresh_upstreams does nothing without them
            self.refresh_upstreams()
        caller = current_caller()
        if caller is None:
            # The built dispatcher read directly: the property's call is for the first exec only.
            # In Dispatcher.exec's order, without keywords: eleven of them cost more to pass than a positional call.
            return (self._built_dispatcher or self._dispatcher).exec(
                op, args, session or self.session, self.allow_write, self.approver, idempotency_key, dry_run, state_digest, self.asker, id_seed,
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
            from .executors._progress import carried

            caller, front_end = current_caller(), carried()

            def exec_for_caller(*call: Any, **options: Any) -> dict[str, Any]:
                # Read steps run on pool threads, which do not inherit the caller's context.
                with acting_as(caller), front_end():
                    return self.exec(*call, session=session, **options)

            from .exec._batch import BatchRunner

            runner = BatchRunner(
                # Steps on the pool's threads are logged as this batch's all the same.
                help_fn=made_in_this_call(self.help),
                exec_fn=made_in_this_call(exec_for_caller),
                is_read=lambda op: isinstance(op, str) and (r := self.registry.resolve(op)) is not None and r.kind == "read",
                max_steps=self.settings.batch_max_steps,
                pool=self._pool(),
            )
            from .exec._batch_bounds import bound_batch

            answers = bound_batch(runner.run(steps, on_error), self.settings.batch_char_limit)
            ok, code, counts = batch_outcome(answers)
            logged.done(ok, code, **counts)
        return answers

    def help_closest_paths(self, path: str, limit: int = 3) -> list[str]:
        return self._help.closest_paths(path, limit)

    def id_choices(self, argument: str, text: str = "", *, project_id: str | None = None, limit: int = 20, moving: str | None = None) -> list:
        """Stored entities that can fill an id argument (``project_id`` -> the projects, by name).

        ``moving``: the document a move is about, left out (with what is under it) of its new-parent choices.
        """
        from ._id_choices import id_choices

        return id_choices(self.store, argument, text, project_id=project_id, limit=limit, moving=moving)

    def id_names(self, *args: Any) -> dict[str, str]:
        """``{id: name}`` for each stored entity an id in these argument objects names, for front ends to show
        the name beside the id (a call re-opened from the history, the history's rows)."""
        from ._id_choices import id_names, ids_in_args
        from .call_history import looks_like_uuid

        wanted = {i: key for i, key in ids_in_args(*args).items() if looks_like_uuid(i)}
        return {i: choice.label for i, choice in id_names(self.store, wanted).items()}

    def _pool(self) -> ThreadPoolExecutor:
        from concurrent.futures import ThreadPoolExecutor

        with self._store_lock:
            if self._batch_pool is None:
                self._batch_pool = ThreadPoolExecutor(max_workers=self.settings.batch_concurrency, thread_name_prefix="opgate-batch")
            return self._batch_pool
