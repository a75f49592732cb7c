"""Context scopes: which ops a conversation context may see.

A catalogue tags each tool with the tool groups it belongs to (``base``,
``global``, ``project`` ...); a context is a set of groups. An op is visible in
a context when it shares a group with it. An op that names no group is not
restricted. No context at all means every op is visible.
"""

from __future__ import annotations

from typing import Any

from ._record import field, record
from .echo_text import quoted
from .registry._record import OpRecord

# The name every front end uses for "no context: every op is visible".
ALL_CONTEXTS = "all"


def everything(record: OpRecord) -> bool:
    """The visibility of no context: every op (help recognises it and skips checking each record)."""
    return True


@record(frozen=True)
class ContextTable:
    """Context name -> tool groups, with a description of each context."""

    contexts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    descriptions: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_mapping(cls, data: dict[str, Any]) -> ContextTable:
        contexts = {name: tuple(groups) for name, groups in (data.get("contexts") or {}).items()}
        raw = data.get("descriptions") or {}
        return cls(contexts, {k: str(v) for k, v in raw.items()} if isinstance(raw, dict) else {})

    @property
    def names(self) -> list[str]:
        return sorted(self.contexts)

    def visibility(self, context: str | None):
        """A predicate for :class:`OpRecord` visibility in ``context`` (``None``: everything)."""
        if context is None or context == ALL_CONTEXTS:
            return everything
        if context not in self.contexts:
            raise ValueError(f"unknown context {quoted(context)}; known: {', '.join(self.names) or 'none'}")
        groups = frozenset(self.contexts[context])

        def visible(record: OpRecord) -> bool:
            declared = record.metadata.contexts
            return not declared or not groups.isdisjoint(declared)

        return visible
