"""What kind of thing belongs at the cursor: pgcli's first stage, pure and unit-tested.

:func:`suggest` reads the text before the cursor and answers with
suggestions such as ``OpPath`` or ``EntityId``; it never looks anything up
beyond the in-memory namespace and never completes anything itself. The
completer turns each kind into completions. Every suggestion carries
``replace``, how many characters before the cursor a completion replaces,
and ``prefix``, that text with its quotes removed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.document import Document

from opgate.core import OpRecord

from ._namespace import Namespace
from ._vocabulary import BATCH_OPTIONS, CALL_COMMANDS, PATH_COMMANDS, SETTINGS
from ._words import Word, words_before_cursor

BOOLEAN_VALUES = ("true", "false")


@dataclass(frozen=True)
class Suggestion:
    prefix: str
    replace: int


@dataclass(frozen=True)
class Command(Suggestion):
    """A REPL command name."""


@dataclass(frozen=True)
class OpPath(Suggestion):
    """A path in the namespace: groups, and ops too when ``ops`` is set."""

    ops: bool = True


@dataclass(frozen=True)
class ArgName(Suggestion):
    """An argument name of ``op`` not given yet."""

    op: str = ""
    used: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class ArgValue(Suggestion):
    """The value of argument ``arg`` of ``op``; ``row`` is its help row (type, enum, format, default, description)."""

    op: str = ""
    arg: str = ""
    row: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class EnumValue(ArgValue):
    """One of a fixed set of values (an enum, or true/false)."""

    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class EntityId(ArgValue):
    """The id of a stored entity; ``project_id`` narrows the choices when the line already names one."""

    project_id: str | None = None


@dataclass(frozen=True)
class ValueHint(ArgValue):
    """A free value: the completer offers a hint from its type, format or default."""


@dataclass(frozen=True)
class SettingName(Suggestion):
    """A name after ``set``."""


@dataclass(frozen=True)
class SettingValue(Suggestion):
    """The value of ``setting``."""

    setting: str = ""


@dataclass(frozen=True)
class BatchOption(Suggestion):
    """``on_error=`` after ``batch``, or its value."""


@dataclass(frozen=True)
class FilePath(Suggestion):
    """A file name (``batch FILE``)."""


def _key_value(word: Word) -> tuple[str, str, int] | None:
    """``key``, the unquoted value and the raw value's length of a ``key=value`` word being typed."""
    key, sep, raw_value = word.raw.partition("=")
    if not sep or not key or any(c in key for c in "'\"\\"):
        return None
    return key, word.value.partition("=")[2], len(raw_value)


def _arguments(record: OpRecord, previous: list[Word], current: Word, namespace: Namespace) -> tuple[Suggestion, ...]:
    if any(w.raw.startswith("{") for w in previous) or current.raw.startswith("{"):
        return ()
    given = dict(w.value.partition("=")[::2] for w in previous if "=" in w.value)
    parsed = _key_value(current)
    if parsed is None:
        return (ArgName(current.value, len(current.raw), record.op, frozenset(given)),)
    key, prefix, replace = parsed
    row = namespace.argument(record, key)
    if row is None:
        return ()
    common = {"prefix": prefix, "replace": replace, "op": record.op, "arg": key, "row": row}
    if row.get("enum"):
        return (EnumValue(**common, values=tuple(str(v) for v in row["enum"])),)
    if row["type"] == "boolean":
        return (EnumValue(**common, values=BOOLEAN_VALUES),)
    if key == "id" or key.endswith("_id"):
        return (EntityId(**common, project_id=given.get("project_id") or None),)
    return (ValueHint(**common),)


def _call(words: list[Word], current: Word, namespace: Namespace) -> tuple[Suggestion, ...]:
    if len(words) == 1:
        return (OpPath(current.value, len(current.raw), ops=True),)
    record = namespace.op(words[1].value)
    return _arguments(record, words[2:], current, namespace) if record is not None else ()


def _path(words: list[Word], current: Word, namespace: Namespace) -> tuple[Suggestion, ...]:
    if len(words) != 1:
        return ()
    return (OpPath(current.value, len(current.raw), ops=PATH_COMMANDS[words[0].value]),)


def _set(words: list[Word], current: Word, namespace: Namespace) -> tuple[Suggestion, ...]:
    if len(words) == 1:
        return (SettingName(current.value, len(current.raw)),)
    if len(words) == 2 and words[1].value in SETTINGS:
        return (SettingValue(current.value, len(current.raw), words[1].value),)
    return ()


def _batch(words: list[Word], current: Word, namespace: Namespace) -> tuple[Suggestion, ...]:
    if "=" in current.raw or any(current.value and option.startswith(current.value) for option in BATCH_OPTIONS):
        return (BatchOption(current.value, len(current.raw)),)
    if len(words) == 1:
        return (FilePath(current.value, len(current.raw)), BatchOption(current.value, len(current.raw)))
    return (BatchOption(current.value, len(current.raw)),)


_RULES: dict[str, Callable[[list[Word], Word, Namespace], tuple[Suggestion, ...]]] = {
    **{name: _call for name in CALL_COMMANDS},
    **{name: _path for name in PATH_COMMANDS if name not in CALL_COMMANDS},
    "set": _set,
    "batch": _batch,
}


def suggest(document: Document, namespace: Namespace) -> tuple[Suggestion, ...]:
    """The kinds of thing that may be typed at the cursor of ``document``; empty when nothing fits."""
    words, current = words_before_cursor(document.text_before_cursor)
    if not words:
        return (Command(current.value, len(current.raw)),)
    rule = _RULES.get(words[0].value)
    return rule(words, current, namespace) if rule is not None else ()

