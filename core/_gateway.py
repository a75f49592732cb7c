"""The one front door: every front end (CLI, REPL, explorer, MCP server) calls a Gateway."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ._builtin import builtin_catalog_loads, builtin_contexts
from ._scopes import ALL_CONTEXTS, ContextTable
from .catalog._sources import CatalogLoad, load_catalog
from .exec._batch import BatchRunner
from .exec._confirm import Approver, Asker
from .exec._dispatcher import Dispatcher
from .exec._handler import Handler
from .exec._session import Session
from .exec._telemetry import CallLog
from .executors import Executors, StoreExecutor
from .help._service import HelpService
from .executors._defaults import default_executors, guard_builtin_ops
from .registry._build import build_registry
from .registry._registry import Registry
from .settings import GatewaySettings

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
        search: str = "default",
    ):
        self.registry = registry if registry is not None else build_registry(builtin_catalog_loads())
        self.contexts = contexts if contexts is not None else builtin_contexts()
        self.settings = settings or GatewaySettings()
        self.session = session or Session()
        self.allow_write = allow_write
        self.approver = approver
        self.asker = asker
        self._db_path = db_path
        self._store = store
        self._store_lock = threading.Lock()
        self._call_log_enabled = call_log
        if executors is None:
            if handlers is None:
                from .handlers import builtin_handlers

                handlers = builtin_handlers()
            executors = default_executors(StoreExecutor(lambda: self.store, handlers, self.settings))
        self.executors = executors
        self._batch_pool: ThreadPoolExecutor | None = None
        if search not in SEARCH_RANKERS:
            raise ValueError(f"search is one of {', '.join(SEARCH_RANKERS)}, not {search!r}")
        self.search_ranker = search
        self._search_index = None
        self._context: str | None = None
        self.set_context(context)

    @classmethod
    def from_catalogs(cls, paths: Iterable[str | Path], *, include_builtin: bool = False, **options: Any) -> Gateway:
        """A gateway over catalogue files or folders (``NAME=PATH`` sets a namespace)."""
        loads: list[CatalogLoad] = builtin_catalog_loads() if include_builtin else []
        for path in paths:
            loads.extend(load_catalog(path))
        return cls(guard_builtin_ops(build_registry(loads)), **options)

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

        return str(self._db_path or default_path())

    def close(self) -> None:
        if self._batch_pool is not None:
            self._batch_pool.shutdown(wait=True)
            self._batch_pool = None
        self.executors.close()
        if self._store is not None:
            self._store.close()

    # -- scope -------------------------------------------------------------------

    @property
    def context(self) -> str | None:
        return self._context

    def set_context(self, context: str | None) -> None:
        """Switch the context scope; which ops exist changes with it."""
        visible = self.contexts.visibility(context)
        self._help = HelpService(self.registry, visible)
        self._dispatcher = Dispatcher(
            self.registry,
            store_provider=lambda: self.store,
            executors=self.executors,
            visible=visible,
            settings=self.settings,
            call_log=CallLog(lambda: self.store, enabled=self._call_log_enabled),
            context=context,
        )
        self._visible = visible
        self._context = None if context == ALL_CONTEXTS else context

    def is_visible(self, op: str) -> bool:
        record = self.registry.get(op)
        return record is not None and self._visible(record)

    @property
    def help_tree(self):
        """The namespace tree of the visible ops (for browsers such as the explorer)."""
        return self._help.tree

    # -- the gateway calls ----------------------------------------------------------

    def help(self, path: str | None = "", format: str = "short", include_examples: bool = True, include_schemas: bool = False) -> dict[str, Any]:
        """Help for a path: the root, a group, ``<group>.read`` / ``.write``, or an op."""
        return self._help.help(path, format=format, include_examples=include_examples, include_schemas=include_schemas)

    def exec(self, op: Any, args: Any = None, idempotency_key: str | None = None, dry_run: bool = False, *, state_digest: str | None = None) -> dict[str, Any]:
        """Run an op (or dry-run it) and answer with the success or error envelope.

        ``state_digest`` is the digest a dry-run returned: if the state it read
        has changed since, the real run fails with CONFLICT.
        """
        return self._dispatcher.exec(
            op, args, session=self.session, allow_write=self.allow_write, approver=self.approver,
            idempotency_key=idempotency_key, dry_run=dry_run, state_digest=state_digest, asker=self.asker,
        )

    def batch(self, steps: Any, on_error: str = "stop") -> list[dict[str, Any]]:
        """Run help and exec steps in one call; one envelope per step, in order."""
        runner = BatchRunner(
            help_fn=self.help,
            exec_fn=self.exec,
            is_read=lambda op: isinstance(op, str) and (r := self.registry.resolve(op)) is not None and r.kind == "read",
            max_steps=self.settings.batch_max_steps,
            pool=self._pool(),
        )
        return runner.run(steps, on_error)

    def search(self, query: str, *, path: str | None = None, kind: str | None = None, limit: int = 10, cursor: str | None = None) -> dict[str, Any]:
        """Natural-language search over the visible ops: ranked pointers with a confidence in [0, 1].

        Answers ``{"ok": true, "query", "results": [{op, tool_name, summary,
        kind, confidence}], "next_cursor"}``; a path that does not exist, or
        one with no match, is an error with hints and the next action.
        """
        from .discovery._search_answer import search_answer

        return search_answer(self, query, path=path, kind=kind, limit=limit, cursor=cursor)

    def search_hits(self, query: str, *, path: str | None = None, kind: str | None = None, limit: int = 10, offset: int = 0, min_confidence: float = 0.0) -> list:
        """The ranked hits (``SearchHit``) for the visible ops, down to ``min_confidence``."""
        hits = self.search_index.search(query, limit=limit, offset=offset, path=path, kind=kind, visible=self._visible)
        return [hit for hit in hits if hit.confidence >= min_confidence]

    def search_node_hits(self, query: str, *, limit: int = 10) -> list:
        """Groups (``NodeHit``) whose visible ops match ``query`` best."""
        return self.search_index.search_nodes(query, limit=limit, visible=self._visible)

    @property
    def search_index(self):
        """The search index over the whole registry, built on first use (visibility is applied per query)."""
        if self._search_index is None:
            with self._store_lock:
                if self._search_index is None:
                    from .search import SearchIndex

                    semantic = self.search_ranker == "semantic"
                    self._search_index = SearchIndex.build(self.registry, semantic=semantic, group_summaries=self.registry.group_summaries)
        return self._search_index

    @property
    def discovery(self):
        """The discovery protocol (list, search_tool_by_category, search_nodes, expand_tool, call_tool)."""
        from .discovery import Discovery

        return Discovery(self)

    def help_closest_paths(self, path: str, limit: int = 3) -> list[str]:
        return self._help.closest_paths(path, limit)

    def id_choices(self, argument: str, text: str = "", *, project_id: str | None = None, limit: int = 20) -> list:
        """Stored entities that can fill an id argument (``project_id`` -> the projects, by name)."""
        from ._id_choices import id_choices

        return id_choices(self.store, argument, text, project_id=project_id, limit=limit)

    def _pool(self) -> ThreadPoolExecutor:
        with self._store_lock:
            if self._batch_pool is None:
                self._batch_pool = ThreadPoolExecutor(max_workers=self.settings.batch_concurrency, thread_name_prefix="opgate-batch")
            return self._batch_pool

    def recent_calls(self, limit: int = 50) -> list[dict[str, Any]]:
        """The newest call-log entries, across sessions."""
        return self._dispatcher.call_log.recent(limit)
