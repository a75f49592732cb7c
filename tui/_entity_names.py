"""The names of the entities this explorer has met, so a person reads a name beside each id.

Names come from the answers of this session's calls (``meta.names``, and the rows a
result holds: they name even what a later call deleted) and from the store, asked off
the UI thread for ids no answer named (``gw.id_names``): a call re-opened from the
history holds bare ids.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from opgate.core.call_history import looks_like_uuid


class EntityNameBook:
    """``names`` maps ids to names; :meth:`to_ask` says which ids the store has not been asked about yet."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self._asked: set[str] = set()

    def learn(self, envelope: dict[str, Any]) -> None:
        """Take the names an answer gives (its ``meta.names``, and the names of the entities it touched)."""
        meta = envelope.get("meta") or {}
        for entity_id, named in (meta.get("names") or {}).items():
            if isinstance(named, dict) and named.get("name"):
                self.names[str(entity_id)] = str(named["name"])
        if meta.get("entities"):
            from ._render_result import touched_entities  # Rich's renderables: not needed before the first answer

            self.names.update((entity_id, name) for entity_id, _, name in touched_entities(envelope) if name)

    def add(self, names: dict[str, str]) -> None:
        self.names.update((i, n) for i, n in names.items() if n)

    def to_ask(self, ids: Iterable[str]) -> set[str]:
        """The ids worth asking the store about (the store's shape, never asked before); marks them asked."""
        fresh = {i for i in ids if i not in self.names and i not in self._asked and looks_like_uuid(i)}
        self._asked |= fresh
        return fresh
