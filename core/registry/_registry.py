"""The op registry: every op by name, and the lookups exec and help need."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from ..catalog._tool import LoadProblem
from ._exported import exported_name, exported_op_name
from ._record import OpRecord


class Registry:
    """Ops by their semantic name, with the tool names they came from.

    ``version`` is a hash of the content, so two registries built from the
    same catalogues share it and any change to a schema, name or example
    changes it (help caches are keyed on it).
    """

    def __init__(self, records: list[OpRecord], problems: list[LoadProblem] | None = None, *, group_summaries: dict[str, str] | None = None):
        self._by_op = {r.op: r for r in sorted(records, key=lambda r: r.op)}
        self._by_tool: dict[str, list[str]] = defaultdict(list)
        for record in self._by_op.values():
            self._by_tool[record.tool_name].append(record.op)
        self.problems: list[LoadProblem] = list(problems or [])
        self.group_summaries: dict[str, str] = dict(group_summaries or {})
        self.version = self._content_hash()
        self._exported: dict[str, str] | None = None

    def _content_hash(self) -> str:
        digest = hashlib.sha256()
        for record in self._by_op.values():
            digest.update(json.dumps(record.to_dict(), sort_keys=True, separators=(",", ":"), default=str).encode())
        return digest.hexdigest()[:16]

    def __len__(self) -> int:
        return len(self._by_op)

    def __iter__(self) -> Iterator[OpRecord]:
        return iter(self._by_op.values())

    def __contains__(self, op: object) -> bool:
        return op in self._by_op

    @property
    def ops(self) -> list[str]:
        return list(self._by_op)

    def errors(self) -> list[LoadProblem]:
        """The problems that left a tool out (``severity == "error"``), without the warnings."""
        return [p for p in self.problems if p.severity == "error"]

    def kinds(self) -> list[str]:
        """Each op's kind (``read`` or ``write``), in the order of :attr:`ops`."""
        return [r.kind for r in self._by_op.values()]

    def get(self, op: str) -> OpRecord | None:
        return self._by_op.get(op)

    def resolve(self, name: str) -> OpRecord | None:
        """An op by its op name, the tool name it came from (if that is unambiguous), or a name it was exported under."""
        record = self._by_op.get(name)
        if record is not None:
            return record
        ops = self._by_tool.get(name, [])
        if len(ops) == 1:
            return self._by_op[ops[0]]
        return self.resolve_exported(name)

    def resolve_exported(self, name: str) -> OpRecord | None:
        """An op by a name a provider export gave it (``onto__task__list``, or a long name shortened with a hash)."""
        if self._exported is None:
            self._exported = self._exported_names()
        op = self._exported.get(name)
        return self._by_op.get(op) if op else None

    def _exported_names(self) -> dict[str, str]:
        names: dict[str, str] = {}
        for op in self._by_op:
            names[exported_op_name(op)] = op
        taken = set(names)
        for tool, ops in self._by_tool.items():
            exported = exported_name(tool)
            if len(ops) == 1 and exported not in taken and exported not in self._by_op:
                names[exported] = ops[0]
        return names

    def ops_for_tool(self, tool_name: str) -> list[str]:
        return list(self._by_tool.get(tool_name, []))

    def closest(self, name: str, candidates: list[str] | None = None, limit: int = 3) -> list[str]:
        """The nearest op names, for "did you mean" answers; tool names count as aliases of their ops."""
        pool = candidates if candidates is not None else self.ops
        import difflib  # only a name that matched nothing needs it

        # Op names are lower case: "ONTO.TASK.LIST" matches nothing letter by letter, yet names one op.
        found = self.ops_named_by_tool(name, pool) or difflib.get_close_matches(name, pool, n=limit, cutoff=0.6) or difflib.get_close_matches(name.lower(), pool, n=limit, cutoff=0.6)
        if len(found) < limit:
            # Only ops in the pool: a context's caller must not be pointed at ops it cannot see.
            allowed = set(pool) if candidates is not None else None
            for tool in difflib.get_close_matches(name, list(self._by_tool), n=limit, cutoff=0.75):
                for op in self._by_tool[tool]:
                    if op not in found and (allowed is None or op in allowed):
                        found.append(op)
        return found[:limit]

    def ops_named_by_tool(self, name: str, pool: list[str] | None = None) -> list[str]:
        """The ops whose tool is called ``name`` (within ``pool``), when there are several: a bare name that cannot pick one."""
        ops = [op for op in self._by_tool.get(name, []) if pool is None or op in pool]
        return ops if len(ops) > 1 else []

    def to_dict(self) -> dict[str, Any]:
        return {
            "registry_version": self.version,
            "tool_count": len(self),
            "ops": [r.to_dict() for r in self],
            "problems": [p.to_dict() for p in self.problems],
        }
