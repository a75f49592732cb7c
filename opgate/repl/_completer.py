"""pgcli's second stage: each kind of suggestion turned into completions, through a table.

The completer never raises: a failure while completing (a busy store, an
odd schema) logs and offers nothing, and the line stays as typed.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document

from ._namespace import PARENT, Namespace
from ._suggest import (
    ArgName,
    BatchOption,
    Command,
    EntityId,
    EnumValue,
    FilePath,
    OpPath,
    SettingName,
    SettingValue,
    Suggestion,
    ValueHint,
    suggest,
)
from ._vocabulary import BATCH_OPTIONS, COMMANDS, SETTINGS, setting_values
from ._words import quote

log = logging.getLogger(__name__)

# Integer arguments with a range this small offer each value.
SMALL_RANGE = 10
META_WIDTH = 70


def _meta(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= META_WIDTH else text[: META_WIDTH - 1] + "…"


def _starting_with(prefix: str, names: Iterable[str]) -> list[str]:
    lowered = prefix.lower()
    return [n for n in names if n.lower().startswith(lowered)]


def _next_hour() -> datetime:
    return (datetime.now(timezone.utc) + timedelta(hours=1)).replace(minute=0, second=0, microsecond=0)


def _format_hints(row: dict[str, Any]) -> list[tuple[str, str, str]]:
    """``(value, display, meta)`` hints for a free value, from its format, range and default."""
    kind = row.get("format") or row["type"]
    hints: list[tuple[str, str, str]] = []
    if kind == "date-time":
        hints.append((_next_hour().strftime("%Y-%m-%dT%H:%M:%SZ"), "<date-time>", "ISO 8601 in UTC, e.g. 2026-12-11T17:00:00Z"))
    elif kind == "date":
        hints.append((_next_hour().strftime("%Y-%m-%d"), "<date>", "YYYY-MM-DD"))
    elif kind in ("uri", "url"):
        hints.append(("https://", "<uri>", "an absolute URL"))
    low, high = row.get("minimum"), row.get("maximum")
    if row["type"] == "integer" and isinstance(low, int) and isinstance(high, int) and high - low < SMALL_RANGE:
        hints += [(str(n), str(n), f"integer {low}..{high}") for n in range(low, high + 1)]
    if "default" in row:
        default = row["default"] if isinstance(row["default"], str) else json.dumps(row["default"])
        hints = [h for h in hints if h[0] != default] + [(default, default, "the default")]
    return hints


class ReplCompleter(Completer):
    """Completions for a REPL line, from the suggestions of :func:`suggest`."""

    def __init__(self, namespace: Namespace):
        self.namespace = namespace
        self._files = PathCompleter(expanduser=True)
        self._producers: dict[type[Suggestion], Callable[[Any], Iterable[Completion]]] = {
            Command: self._commands,
            OpPath: self._op_paths,
            ArgName: self._arg_names,
            EnumValue: self._enum_values,
            EntityId: self._entity_ids,
            ValueHint: self._value_hints,
            SettingName: self._setting_names,
            SettingValue: self._setting_values,
            BatchOption: self._batch_options,
            FilePath: self._file_paths,
        }

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        try:
            completions = [c for s in suggest(document, self.namespace) for c in self._producers[type(s)](s)]
        except Exception:  # a completer must never break the prompt
            log.exception("completion failed for %r", document.text_before_cursor)
            return
        yield from completions

    # -- the producers, one per kind of suggestion ------------------------------

    def _commands(self, s: Command) -> Iterable[Completion]:
        for name in _starting_with(s.prefix, COMMANDS):
            yield Completion(name, -s.replace, display_meta=_meta(COMMANDS[name]))

    def _op_paths(self, s: OpPath) -> Iterable[Completion]:
        absolute = s.prefix.startswith("/")
        base_text, _, last = s.prefix.lstrip("/").rpartition(".")
        if absolute:
            bases = [base_text]
        elif base_text:
            bases = self.namespace.candidates(base_text)
        else:
            bases = list(dict.fromkeys([self.namespace.cwd, ""]))
        if not absolute and not base_text and self.namespace.cwd and PARENT.startswith(s.prefix) and not s.ops:
            yield Completion(PARENT, -s.replace, display_meta="up one level")
        seen: set[str] = set()
        for base in bases:
            node = self.namespace.node(base)
            if node is None:
                continue
            for name in _starting_with(last, sorted(node.children)):
                child = node.children[name]
                if child.path in seen:
                    continue
                seen.add(child.path)
                if s.ops and child.record is not None:
                    yield Completion(name, -len(last), display_meta=_meta(f"{child.record.kind}  {child.record.summary}"))
                if child.children:
                    text = f"{name}." if s.ops else name
                    yield Completion(text, -len(last), display=f"{name}.", display_meta=f"group, {child.total} op{'' if child.total == 1 else 's'}")
            if base_text:
                break

    def _arg_names(self, s: ArgName) -> Iterable[Completion]:
        record = self.namespace.op(s.op)
        if record is None:
            return
        for row in self.namespace.arguments(record):
            name = row["name"]
            if name in s.used or not name.lower().startswith(s.prefix.lower()):
                continue
            label = f"{row['type']}, required" if row["required"] else row["type"]
            yield Completion(f"{name}=", -s.replace, display=name, display_meta=_meta(f"{label}  {row.get('description', '')}"), style="bold" if row["required"] else "")

    def _enum_values(self, s: EnumValue) -> Iterable[Completion]:
        default = s.row.get("default")
        for value in _starting_with(s.prefix, s.values):
            yield Completion(quote(value), -s.replace, display=value, display_meta="the default" if str(default) == value else s.row["type"])

    def _entity_ids(self, s: EntityId) -> Iterable[Completion]:
        gateway = self.namespace.gateway
        narrow = s.project_id if s.arg != "project_id" else None
        choices = gateway.id_choices(s.arg, s.prefix, project_id=narrow) or (narrow and gateway.id_choices(s.arg, s.prefix)) or []
        if not choices and s.prefix:
            choices = [c for c in gateway.id_choices(s.arg, "", limit=200) if c.id.startswith(s.prefix)]
        for choice in choices:
            yield Completion(choice.id, -s.replace, display=choice.label, display_meta=f"{choice.kind} {choice.id}")
        if not choices:
            yield from self._value_hints(s)

    def _value_hints(self, s: ValueHint | EntityId) -> Iterable[Completion]:
        for value, display, meta in _format_hints(s.row):
            if value.startswith(s.prefix):
                yield Completion(quote(value), -s.replace, display=display, display_meta=meta)

    def _setting_names(self, s: SettingName) -> Iterable[Completion]:
        for name in _starting_with(s.prefix, SETTINGS):
            yield Completion(name, -s.replace, display_meta=SETTINGS[name])

    def _setting_values(self, s: SettingValue) -> Iterable[Completion]:
        for value in _starting_with(s.prefix, setting_values(s.setting, self.namespace.gateway.contexts.names)):
            yield Completion(value, -s.replace)

    def _batch_options(self, s: BatchOption) -> Iterable[Completion]:
        key, sep, value = s.prefix.partition("=")
        if not sep:
            for option in _starting_with(key, BATCH_OPTIONS):
                yield Completion(f"{option}=", -s.replace, display_meta="|".join(BATCH_OPTIONS[option]))
            return
        for choice in _starting_with(value, BATCH_OPTIONS.get(key, ())):
            yield Completion(choice, -len(value))

    def _file_paths(self, s: FilePath) -> Iterable[Completion]:
        yield from self._files.get_completions(Document(s.prefix), CompleteEvent(completion_requested=True))
