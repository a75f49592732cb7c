"""A registry read back from the cache: names and kinds at once, each record when it is asked for.

``opgate help`` over 50,000 ops needs the op names and kinds, a few
summaries and the version; parsing every schema would cost what building the
registry costs. So the names come from a small file and each record from its
own line of a second file, read (and its SHA-256 checked) the first time any
record is needed. If that second file turns out damaged, the registry is
rebuilt from the catalogues and its records are used instead: a bad cache
costs time, never a wrong answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ..catalog._tool import LoadProblem
from ..registry._record import OpRecord
from ..registry._registry import Registry
from ._codec import record_from_json

# Reads the record lines (None when the file is damaged) / builds the registry from the catalogues.
LineSource = Callable[[], "list[bytes] | None"]
Rebuild = Callable[[], Registry]


class LazyRecords(Mapping[str, OpRecord]):
    """Op name -> record, each record decoded the first time it is read."""

    def __init__(self, ops: list[str], lines: LineSource, rebuild: Rebuild):
        self._ops = ops
        self._position = {op: i for i, op in enumerate(ops)}
        self._records: list[OpRecord | None] = [None] * len(ops)
        self._lines_source = lines
        self._lines: list[bytes] | None = None
        self._rebuild = rebuild

    def __getitem__(self, op: str) -> OpRecord:
        position = self._position[op]
        record = self._records[position]
        if record is None:
            record = self._records[position] = self._decode(position)
        return record

    def _decode(self, position: int) -> OpRecord:
        if self._lines is None:
            lines = self._lines_source()
            if lines is None or len(lines) != len(self._ops):
                self._use_rebuilt()
                return self._records[position]  # type: ignore[return-value]
            self._lines = lines
        try:
            record = record_from_json(json.loads(self._lines[position]))
        except (ValueError, TypeError, KeyError):
            record = None
        if record is None or record.op != self._ops[position]:
            self._use_rebuilt()
            return self._records[position]  # type: ignore[return-value]
        return record

    def _use_rebuilt(self) -> None:
        rebuilt = self._rebuild()
        self._records = [rebuilt.get(op) for op in self._ops]

    def __contains__(self, op: object) -> bool:
        return op in self._position

    def __iter__(self) -> Iterator[str]:
        return iter(self._ops)

    def __len__(self) -> int:
        return len(self._ops)


class CachedRegistry(Registry):
    """A :class:`Registry` whose records load on demand from the cache (same answers, same version)."""

    def __init__(self, *, version: str, ops: list[str], kinds: list[str], tool_names: list[str], problems: Callable[[], list[LoadProblem]], errors: list[LoadProblem], group_summaries: dict[str, str], lines: LineSource, rebuild: Rebuild):
        # Registry.__init__ is not called: it would need every record to sort and hash them.
        self._by_op = LazyRecords(ops, lines, rebuild)  # type: ignore[assignment]
        self._ops = ops
        self._kinds = kinds
        self._tool_names = tool_names
        self._tools: dict[str, list[str]] | None = None
        # A big catalogue can have tens of thousands of warnings; most commands print only the errors.
        self._problems: list[LoadProblem] | None = None
        self._load_problems = problems
        self._errors = errors
        self.group_summaries = group_summaries
        self.version = version
        self._exported = None

    @property  # type: ignore[override]
    def _by_tool(self) -> dict[str, list[str]]:
        if self._tools is None:
            tools: dict[str, list[str]] = {}
            for op, tool in zip(self._ops, self._tool_names):
                tools.setdefault(tool, []).append(op)
            self._tools = tools
        return self._tools

    @property  # type: ignore[override]
    def problems(self) -> list[LoadProblem]:
        if self._problems is None:
            self._problems = self._load_problems()
        return self._problems

    @problems.setter
    def problems(self, value: list[LoadProblem]) -> None:
        self._problems = value

    def errors(self) -> list[LoadProblem]:
        return list(self._errors)

    @property
    def ops(self) -> list[str]:
        return list(self._ops)

    def kinds(self) -> list[str]:
        return list(self._kinds)


class RecordSequence(Sequence[OpRecord]):
    """A registry's records by position in op order (what a search index numbers), each read when asked for."""

    def __init__(self, registry: Registry):
        self._ops = registry.ops
        self._get = registry.get

    def __getitem__(self, position):  # type: ignore[override]
        if isinstance(position, slice):
            return [self._get(op) for op in self._ops[position]]
        return self._get(self._ops[position])

    def __len__(self) -> int:
        return len(self._ops)


def light_columns(registry: Registry) -> dict[str, Any]:
    """What :class:`CachedRegistry` reads at once: op names, kinds, tool names, problems, summaries, version."""
    records = list(registry)
    return {
        "ops": [r.op for r in records],
        "kinds": [r.kind for r in records],
        "tool_names": [r.tool_name for r in records],
    }
