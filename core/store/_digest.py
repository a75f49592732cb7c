"""A fingerprint of the stored state one transaction looked at.

A dry-run returns it; when the same call later runs for real, a different
fingerprint means something it read has changed in between and the preview
no longer holds. Only state that existed before the transaction counts: rows
the transaction wrote itself (with fresh ids and times) would make two runs
over the same data disagree.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any


def content_hash(value: Any) -> str:
    """A stable hash of a JSON-like value (key order does not matter)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class ReadLog:
    """The pre-existing rows and query results a transaction has observed."""

    def __init__(self) -> None:
        self._rows: dict[tuple[str, str], str] = {}
        self._queries: dict[str, str] = {}
        self._written: set[tuple[str, str]] = set()

    def wrote(self, kind: str, id: str) -> None:
        """Mark a row as written: later reads of it are the transaction's own work."""
        self._written.add((kind, id))

    def is_own(self, kind: str, id: str) -> bool:
        return (kind, id) in self._written

    def saw(self, kind: str, id: str, row: dict) -> None:
        """Note a row as read, unless it was already seen or written here."""
        key = (kind, id)
        if key not in self._written and key not in self._rows:
            self._rows[key] = content_hash(row)

    def saw_query(self, signature: Any, total: int, keys: Iterable[tuple[str, str]]) -> None:
        """Note a list or search result, so that rows appearing later are noticed too.

        Rows this transaction wrote are left out of the ids: their ids are
        random, but a rerun writes the same number of them, so ``total`` agrees.
        """
        # A query about something this transaction created (the children of a new
        # project) is its own work too: the new id differs from run to run.
        text = json.dumps(signature, sort_keys=True, default=str)
        if any(id in text for _, id in self._written):
            return
        ids = [id for kind, id in keys if (kind, id) not in self._written]
        self._queries.setdefault(content_hash(signature), content_hash([total, ids]))

    def digest(self) -> str:
        """Hex sha256 over every observation, in sorted order."""
        entries = sorted(
            [("row", kind, id, h) for (kind, id), h in self._rows.items()]
            + [("query", "", sig, h) for sig, h in self._queries.items()]
        )
        return hashlib.sha256(json.dumps(entries, separators=(",", ":")).encode()).hexdigest()
