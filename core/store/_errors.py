"""The failures a store reports, in words the dispatcher can map to envelopes.

Handlers and the dispatcher only ever see these; backend exceptions (apsw,
psycopg, ...) are translated inside the backend, once.
"""

from __future__ import annotations

from typing import Any


class StoreError(Exception):
    """Base class for everything the store raises on purpose.

    ``retryable`` tells the dispatcher whether running the same call again
    later may succeed (lock contention) or is pointless (a missing row).
    """

    retryable = False


class NotFound(StoreError):
    """No entity of ``kind`` has ``id`` (kind ``"entity"`` when it is unknown)."""

    def __init__(self, kind: str, id: str) -> None:
        self.kind = kind
        self.id = id
        super().__init__(f"no {kind} with id {id!r}")


class Conflict(StoreError):
    """The change contradicts what is stored: a duplicate, a cycle, a rule."""

    def __init__(self, reason: str, **details: Any) -> None:
        self.reason = reason
        self.details = details
        super().__init__(reason)


class InvalidValue(StoreError):
    """A field is unknown, missing, or outside its allowed values.

    The dispatcher validates arguments against the catalogue schemas first, so
    reaching this usually means a handler passed something the schema allowed
    but the data model does not.
    """

    def __init__(self, field: str, message: str, allowed: tuple[str, ...] | None = None) -> None:
        self.field = field
        self.allowed = allowed
        suffix = f" (allowed: {', '.join(allowed)})" if allowed else ""
        super().__init__(f"{field}: {message}{suffix}")


class NulInText(InvalidValue):
    """Text holding NUL (U+0000), which a PostgreSQL text column cannot store.

    ``field`` is the column when the store could tell it; a statement that
    psycopg refused names none, and the store executor then names the
    argument that carried it (:meth:`naming`).
    """

    UNNAMED = "value"
    MESSAGE = "text cannot contain NUL (\\u0000) characters in a PostgreSQL workspace; remove them"

    def __init__(self, field: str = UNNAMED) -> None:
        super().__init__(field, self.MESSAGE)

    def naming(self, args: Any) -> NulInText:
        """This error naming the first argument whose text holds NUL (itself when none does)."""
        where = _first_nul(args, "")
        return NulInText(where) if self.field == self.UNNAMED and where else self


def _first_nul(value: Any, path: str) -> str | None:
    if isinstance(value, str):
        return path if "\x00" in value else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _first_nul(item, f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}" if path else str(key))
        if found:
            return found
    return None


class StoreBusy(StoreError):
    """The database stayed locked by another writer past the busy timeout."""

    retryable = True


class NotAWorkspace(StoreError):
    """A file that is not an opgate workspace, so opgate refuses to replace or delete it."""


class SchemaTooNew(StoreError):
    """The database was migrated by a newer opgate than this one."""

    def __init__(self, found: int, supported: int, path: str) -> None:
        self.found = found
        self.supported = supported
        super().__init__(
            f"{path} has schema version {found} but this opgate knows only up to "
            f"{supported}; upgrade opgate or point it at another database"
        )
