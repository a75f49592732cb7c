"""The store as handlers see it: typed, documented, and free of SQLite.

A backend (SQLite today, perhaps PostgreSQL later) implements
:class:`OntologyStore`. Handlers receive a :class:`StoreTransaction` for
read-only ops and a :class:`StoreWriteTransaction` for mutating ops. Rows are
plain dicts whose keys are the fields of docs/ontology.md (``props`` already a
dict). Failures are the exceptions in ``_errors`` and nothing else.

Kinds are the ten entity kinds plus ``"template"``; edges and task-document
links have their own methods.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Literal, Protocol

from .._record import field, record
from ._changes import ChangeSet
from ._rows import Shape

Direction = Literal["outgoing", "incoming", "both"]
Order = str | Sequence[str] | None


COUNT_CAP = 1000
"""Lists and searches count their matches up to here (or to the end of the page asked for, if further).

Past it ``Page.total`` is a lower bound and ``Page.total_exact`` is false:
counting every match of a big table on every page would cost more than the
page itself (4.4 ms against 0.04 ms at 100,000 tasks).
"""


@record(frozen=True)
class Page:
    """One page of rows and how many rows matched in all.

    ``total`` is exact when ``total_exact``; otherwise the store stopped
    counting (see :data:`COUNT_CAP`) and at least ``total`` rows matched,
    more than the page reaches. ``rows, total = tx.list(...)`` unpacks it.
    """

    rows: list[dict]
    total: int
    total_exact: bool = True

    def __iter__(self) -> Iterator[Any]:
        return iter((self.rows, self.total))


@record
class Removal:
    """Everything one ``delete`` took away, the asked-for row first."""

    kind: str
    row: dict
    deleted: list[dict] = field(default_factory=list)  # [{kind, id, row}], cascade included
    edges_removed: list[dict] = field(default_factory=list)
    links_removed: list[dict] = field(default_factory=list)
    cleared: list[dict] = field(default_factory=list)  # [{kind, id, field}] references set to null

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "row": self.row, "deleted": self.deleted,
            "edges_removed": self.edges_removed, "links_removed": self.links_removed,
            "cleared": self.cleared,
        }


class StoreTransaction(Protocol):
    """Reads inside one consistent snapshot. Every row read is noted for the digest."""

    def get(self, kind: str, id: str) -> dict:
        """The full row; :class:`NotFound` if there is none."""

    def find(self, kind: str, id: str) -> dict | None:
        """The full row, or ``None``."""

    def kind_of(self, id: str) -> str | None:
        """Which kind (entity kinds or ``"template"``) has this id, if any."""

    def get_entity(self, id: str) -> tuple[str, dict]:
        """``(kind, row)`` for an id of any kind; :class:`NotFound` (kind ``"entity"``)."""

    def list(self, kind: str, filters: Mapping[str, Any] | None = None, *,
             limit: int | None = None, offset: int = 0, order: Order = None,
             fields: Sequence[str] | None = None, shape: Shape | None = None) -> Page:
        """Rows whose fields equal ``filters`` (``None`` matches null, a list any of
        its values), ordered by ``order`` (``"field"`` or ``"-field"``; default
        ``created_at``), with the total before paging (exact up to
        :data:`COUNT_CAP`). ``fields`` keeps only those fields (and ``id``) in
        each row; ``shape``, ``(key, field)`` pairs with ``("id", "id")``
        first, makes each row those keys in that order (a summary, ready for a
        result). The state digest still covers whole rows."""

    def list_titled(self, kind: str, project_id: str, title: str, *, limit: int | None = None,
                    fields: Sequence[str] | None = None) -> Page:
        """Rows of ``project_id`` whose display name equals ``title`` but for ASCII
        case and spaces (space, tab, line breaks, no-break space), oldest first:
        candidates for the caller to narrow, found through an index for tasks
        and documents. Totals and ``fields`` as for :meth:`list`."""

    def search(self, kind: str, text: str, filters: Mapping[str, Any] | None = None, *,
               limit: int | None = None, offset: int = 0,
               fields: Sequence[str] | None = None, whole_words: bool = False) -> Page:
        """Keyword search: every word must occur (as a word prefix, or whole with
        ``whole_words``) in the display name or long text; best match first,
        display-name hits weigh most. Totals and ``fields`` as for :meth:`list`."""

    def search_all(self, text: str, *, kinds: Sequence[str] | None = None,
                   project_id: str | None = None, limit: int = 20) -> list[dict]:
        """Fuzzy search across kinds, tolerant of typos. Each hit is
        ``{kind, id, name, project_id, score, snippet}``, score in (0, 1]."""

    def get_edge(self, edge_id: str) -> dict:
        """One edge; :class:`NotFound` (kind ``"edge"``)."""

    def find_edge(self, src_id: str, dst_id: str, rel: str) -> dict | None:
        """The edge with this (src, dst, rel), if any."""

    def edges_of(self, entity_id: str, *, direction: Direction = "both",
                 rel: str | None = None, limit: int | None = None) -> list[dict]:
        """Edges leaving (``outgoing``), entering (``incoming``) or touching the entity."""

    def project_edges(self, project_id: str) -> list[dict]:
        """Edges with at least one endpoint in the project (the project included)."""

    def task_documents(self, task_id: str, role: str | None = None, *, task_read: bool = False) -> list[dict]:
        """Document rows linked to the task, each with its ``role`` and ``linked_at``.

        :class:`NotFound` if there is no such task, unless ``task_read``: the
        caller read the task in this transaction already."""

    def task_details(self, task_id: str, document_shape: Shape) -> tuple[dict, list[dict], list[dict]]:
        """What a task's get shows: ``(task row, linked documents, edges touching it)``.

        Each document is keyed as ``document_shape`` says (``("id", "id")``
        first) and carries its ``role``; links and edges in the order of
        :meth:`task_documents` and :meth:`edges_of`. :class:`NotFound` if
        there is no such task."""

    def document_children(self, project_id: str, parent_id: str | None) -> list[dict]:
        """Direct children of a document (``None``: the project's roots), by position."""

    def document_path(self, document_id: str) -> list[dict]:
        """Rows from the tree root down to the document itself."""

    def document_subtree(self, document_id: str) -> list[dict]:
        """The document and all its descendants, parents before children."""

    def document_tree(self, project_id: str, *, root_id: str | None = None,
                      max_depth: int | None = None) -> list[dict]:
        """Nested rows, each with ``children``; ``max_depth`` 0 keeps only the top level."""

    def get_idempotency_key(self, caller: str, key: str, *,
                            include_expired: bool = False) -> dict | None:
        """The stored record (``response`` decoded), or ``None``."""

    def recent_calls(self, limit: int = 50, *, caller: str | None = None,
                     op: str | None = None, kind: str | None = "exec") -> list[dict]:
        """Call-log entries, newest first; only exec calls unless ``kind`` says
        otherwise (``None``: every kind)."""

    def calls_since(self, since: str | None = None, *, limit: int = 100_000) -> list[dict]:
        """Call-log entries of every kind stamped at or after ``since``
        (``YYYY-MM-DDTHH:MM:SSZ``; all when ``None``), the newest ``limit``, oldest first."""

    def upstream_pins(self, upstream: str) -> dict[str, dict]:
        """The pinned tool definitions of one upstream MCP server, by tool name."""

    def api_token(self, token_hash: str) -> dict | None:
        """The HTTP bearer token with this SHA-256 digest (revoked ones too): ``{name, role, token_hash, created_at, revoked_at}``."""

    def api_tokens(self) -> list[dict]:
        """Every bearer token, revoked ones included, by name."""

    def pending_confirmation_counts(self, caller: str, now: str) -> tuple[int, int]:
        """Unexpired confirmations waiting for an answer: ``(this caller's, all)``."""

    def client_session_state(self, session_key: str, fresh_since: str) -> dict | None:
        """A named session's remembered state written at or after ``fresh_since``, or ``None``."""

    def state_digest(self) -> str:
        """Hex sha256 of the pre-existing rows and query results read so far."""


class StoreWriteTransaction(StoreTransaction, Protocol):
    """A write transaction: reads plus mutations, all recorded in ``changes``.

    Leaving the ``with`` block commits unless the store was asked for a
    dry-run or :meth:`rollback` was called; an exception always rolls back.
    """

    changes: ChangeSet

    def insert(self, kind: str, fields: Mapping[str, Any]) -> dict:
        """Create a row: uuid4 id, timestamps, defaults (first state_key, task
        priority 3, document type ``document.note``, document appended to its
        siblings unless ``position`` is given). References must exist in the
        same project."""

    def update(self, kind: str, id: str, changes: Mapping[str, Any]) -> tuple[dict, dict]:
        """Apply ``changes``; return ``(before, after)``. A document's ``parent_id``
        or ``position`` goes through :meth:`move_document`."""

    def delete(self, kind: str, id: str, *, cascade: bool = False) -> Removal:
        """Delete by the rules of docs/ontology.md (links, edges, cleared
        references; documents with children need ``cascade``)."""

    def add_edge(self, src_kind: str, src_id: str, dst_kind: str, dst_id: str, rel: str,
                 props: Mapping[str, Any] | None = None, *, edge_id: str | None = None,
                 created_at: str | None = None) -> dict:
        """Link two existing entities; :class:`Conflict` if the same edge exists."""

    def remove_edge(self, edge_id: str) -> dict:
        """Remove an edge and return it."""

    def link_task_document(self, task_id: str, document_id: str, role: str = "reference", *,
                           created_at: str | None = None) -> dict:
        """Attach a document to a task; :class:`Conflict` if already attached."""

    def unlink_task_document(self, task_id: str, document_id: str) -> dict:
        """Detach a document from a task and return the link."""

    def move_document(self, document_id: str, new_parent_id: str | None,
                      position: int | None = None) -> tuple[dict, dict]:
        """Move within the project's tree; ``position`` shifts later siblings,
        ``None`` appends. :class:`Conflict` ("cycle") under itself."""

    def put_idempotency_key(self, caller: str, key: str, *, fingerprint: str, status: str,
                            response: Any = None, ttl_seconds: int = 86400) -> dict:
        """Insert or replace the record for (caller, key)."""

    def delete_expired_idempotency_keys(self) -> int:
        """Drop expired records; return how many."""

    def append_call_log(self, entry: Mapping[str, Any]) -> None:
        """Add one call-log entry (``ts`` defaults to now)."""

    def pin_upstream_tools(self, upstream: str, pins: Mapping[str, tuple[str, Any]]) -> None:
        """Pin tool definitions of an upstream: ``{tool: (digest, definition)}``."""

    def unpin_upstream_tools(self, upstream: str, tools: Iterable[str]) -> int:
        """Forget the pins of tools an upstream no longer offers; return how many."""

    def put_api_token(self, name: str, role: str, token_hash: str) -> dict:
        """Add a bearer token (only its digest); :class:`Conflict` if a live one has this name."""

    def revoke_api_token(self, name: str) -> dict | None:
        """Mark a token revoked; ``None`` if no live token has this name."""

    def put_pending_confirmation(self, row: Mapping[str, Any]) -> None:
        """Keep a confirmation that waits for its answer (see ``_sqlite_serving``)."""

    def claim_pending_confirmation(self, state_hash: str, caller: str, call_fingerprint: str, now: str) -> dict | None:
        """Take the unexpired confirmation waiting under ``state_hash`` for this caller and call, exactly once."""

    def put_client_session_state(self, session_key: str, state: Mapping[str, Any], now: str, *, forget_before: str) -> None:
        """Keep a named session's state, forgetting sessions idle since ``forget_before``."""

    def append_call_logs(self, entries: Sequence[Mapping[str, Any]]) -> None:
        """Add several call-log entries, in order."""

    def delete_old_calls(self, *, older_than: str, keep_newest: int) -> int:
        """Drop call-log entries stamped before ``older_than`` and all but the
        newest ``keep_newest``; return how many went."""

    def rollback(self) -> None:
        """End now, discarding every write; ``changes`` stays readable."""


class OntologyStore(Protocol):
    """A workspace database. Safe to share between threads."""

    location: str

    def read(self, *, observe: bool = True) -> AbstractContextManager[StoreTransaction]:
        """A read-only transaction over one snapshot.

        ``observe=False`` is for a read that will never hand out or check a
        state digest: it notes nothing of what it reads, a list with
        ``fields`` or ``shape`` fetches only those columns, and
        ``state_digest()`` raises :class:`StoreError`."""

    def write(self, *, dry_run: bool = False, lock_late: bool = False) -> AbstractContextManager[StoreWriteTransaction]:
        """A write transaction that holds the write lock from its first statement.

        With ``lock_late`` the lock is taken by the first write method
        (``insert``, ``update``, ``delete``, or any statement that writes)
        instead: reads before it see an earlier state, so only callers whose
        early reads merely inform may ask for it (see ``Handler.reads_before_lock``).
        """

    def log_calls(self, entries: Sequence[Mapping[str, Any]], *, sweep: tuple[str, int] | None = None) -> None:
        """Add call-log entries in a transaction of their own (without the write
        lock where the backend allows it); ``sweep`` is ``(older_than,
        keep_newest)`` for ``delete_old_calls``."""

    def dump(self) -> dict[str, list[dict]]:
        """Every table's rows in a stable order (the call log excluded)."""

    def close(self) -> None:
        """Close every connection this store opened; a later transaction opens new ones (close is not final)."""
