"""The call log read back for people: each entry's outcome in words, its arguments in one line, and a filter.

The explorer's history screen and the REPL's ``history calls`` both use
these, so a filter typed in one means the same in the other.

A filter is words: ``op:onto.task`` keeps calls whose op contains that text;
``is:ok``, ``is:failed``, ``is:cancelled``, ``is:dry-run``, ``is:run`` or
``is:NOT_FOUND`` (any code) keep calls with that outcome or mode; every other
word must appear in the op, the code or the arguments (case does not matter).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .exec._telemetry import CANCELLED

OK, FAILED = "ok", "failed"
OUTCOME_WORDS = ("ok", "failed", "cancelled", "dry-run", "run")


def outcome(entry: dict[str, Any]) -> str:
    """``ok``, ``cancelled`` (the person said no: nothing was written) or ``failed``."""
    if entry.get("ok"):
        return OK
    return "cancelled" if entry.get("code") == CANCELLED else FAILED


def outcome_text(entry: dict[str, Any]) -> str:
    """The outcome as a person reads it: ``ok``, ``cancelled, nothing written`` or the error code."""
    found = outcome(entry)
    if found == OK:
        return "ok"
    if found == "cancelled":
        return "cancelled, nothing written"
    return str(entry.get("code") or "error")


def when_text(entry: dict[str, Any]) -> str:
    """When the call was made, short enough for a narrow column: ``11-27 12:49:34`` (UTC, the year left out)."""
    return str(entry.get("ts") or "")[5:19].replace("T", " ")


_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


# A name beside an id is cut to this many characters: the id after it still tells two apart.
NAME_WIDTH = 20


def looks_like_uuid(value: Any) -> bool:
    """Whether ``value`` has the shape of the store's ids (only those are worth looking up by name)."""
    return isinstance(value, str) and _UUID.match(value) is not None


def _short(value: Any, width: int, names: Mapping[str, str]) -> str:
    if isinstance(value, str) and _UUID.match(value):
        short = f"{value[:4]}…{value[-4:]}"  # enough to tell two ids apart in a row
        name = names.get(value)
        if not name:
            return short
        name = name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"
        return f"{json.dumps(name, ensure_ascii=False)} {short}"
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    if isinstance(value, str) and (not value or any(c.isspace() for c in value)):
        text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: max(width - 1, 1)] + "…"


def args_text(args: Any, width: int = 80, names: Mapping[str, str] | None = None) -> str:
    """The arguments in one line, ``key=value`` each (long values cut), at most ``width`` characters.

    An id whose entity ``names`` (``{id: name}``) knows shows its name first: ``project_id="Relay 2.0 Launch" 1000…0001``.
    """
    if not isinstance(args, dict) or not args:
        return ""
    text = " ".join(f"{key}={_short(value, 24, names or {})}" for key, value in args.items())
    text = " ".join(text.split())  # arguments may hold newlines: one row stays one line
    return text if len(text) <= width else text[: width - 1] + "…"


@dataclass(frozen=True)
class HistoryFilter:
    """A parsed filter; ``HistoryFilter.parse("op:task is:failed draft")``."""

    ops: tuple[str, ...] = ()
    outcomes: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    problems: list[str] = field(default_factory=list, compare=False)

    @classmethod
    def parse(cls, text: str) -> HistoryFilter:
        ops, outcomes, words, problems = [], [], [], []
        for word in text.split():
            lowered = word.lower()
            if lowered.startswith("op:"):
                ops.append(lowered[3:])
            elif lowered.startswith("is:"):
                wanted = word[3:]
                if wanted.lower() in OUTCOME_WORDS:
                    outcomes.append(wanted.lower())
                elif wanted.isupper() and wanted.replace("_", "").isalpha():
                    outcomes.append(wanted)
                else:
                    problems.append(f"is:{wanted} is not an outcome; use is:ok, is:failed, is:cancelled, is:dry-run, is:run or an error code")
            else:
                words.append(lowered)
        return cls(tuple(ops), tuple(outcomes), tuple(words), problems)

    def __bool__(self) -> bool:
        return bool(self.ops or self.outcomes or self.words)

    def _outcome_matches(self, entry: dict[str, Any], wanted: str) -> bool:
        if wanted == "dry-run":
            return bool(entry.get("dry_run"))
        if wanted == "run":
            return not entry.get("dry_run")
        if wanted in (OK, FAILED, "cancelled"):
            return outcome(entry) == wanted
        return entry.get("code") == wanted

    def matches(self, entry: dict[str, Any], names: Mapping[str, str] | None = None) -> bool:
        """Whether the entry passes; a word also finds the name of an entity an argument's id names (``names``)."""
        op = str(entry.get("op") or entry.get("tool_name") or "").lower()
        if self.ops and not any(part in op for part in self.ops):
            return False
        if not all(self._outcome_matches(entry, wanted) for wanted in self.outcomes):
            return False
        if self.words:
            # The arguments as shown (key=value) and as JSON: what a person sees is what they can type.
            args = entry.get("args")
            haystack = " ".join([op, outcome_text(entry), args_text(args, 100_000, names), json.dumps(args, ensure_ascii=False, default=str)]).lower()
            return all(word in haystack for word in self.words)
        return True

    def apply(self, entries: list[dict[str, Any]], names: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
        return [entry for entry in entries if self.matches(entry, names)]
