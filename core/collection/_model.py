"""What a collection is once loaded: its calls in run order, its variables, and each call's expectations."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

COLLECTION_FILE = "collection.toml"
"""The optional file in a collection folder that names it, describes it and gives default variables."""


@dataclass(frozen=True)
class Expectation:
    """What a call should answer. ``error`` is an error code, or ``None`` for ok.

    ``result`` maps a JSON pointer (``/tasks/0/title``) or a path
    (``tasks[0].title``) into the result to a value or a matcher table;
    ``diff`` maps ``created``/``updated``/``deleted`` to counts by kind, and
    ``edges_added``/``edges_removed``/``links_added``/``links_removed`` to counts.
    """

    error: str | None = None
    result: dict[str, Any] = field(default_factory=dict)
    diff: dict[str, Any] = field(default_factory=dict)
    stated: bool = False  # False when the file had no [expect] table (ok is still checked)


@dataclass(frozen=True)
class SavedCall:
    """One file of a collection: a call to an op, with notes and what it should answer."""

    name: str
    op: str
    args: dict[str, Any]
    notes: str
    expect: Expectation
    path: Path | None = None

    @property
    def file_name(self) -> str:
        return self.path.name if self.path else f"{self.name}.toml"


@dataclass(frozen=True)
class Collection:
    """A folder of saved calls, run in file-name order."""

    path: Path
    name: str
    description: str
    variables: dict[str, Any]
    calls: tuple[SavedCall, ...]

    def index_of(self, name: str) -> int | None:
        return next((i for i, call in enumerate(self.calls) if call.name == name), None)
