"""Where the REPL stands in the op namespace, and what a typed path means from there.

Paths are dotted. ``task.list`` is read relative to the current path first and
then from the root; ``/onto.task`` is always from the root; ``..`` goes up a
level (``../..`` two). Ops may also be named by their catalogue tool name.
"""

from __future__ import annotations

from typing import Any

from opgate.core import Gateway, OpRecord
from opgate.core.help import HelpNode, describe_args

PARENT = ".."
ROOT = "/"


def join(base: str, rest: str) -> str:
    return f"{base}.{rest}" if base and rest else base or rest


def parent(path: str) -> str:
    return path.rpartition(".")[0]


class Namespace:
    """The visible op tree of a gateway, seen from the current path ``cwd``."""

    def __init__(self, gateway: Gateway, cwd: str = ""):
        self.gateway = gateway
        self.cwd = cwd
        self._args: dict[str, list[dict[str, Any]]] = {}

    @property
    def prompt_path(self) -> str:
        return f"opgate:{self.cwd}" if self.cwd else "opgate"

    def node(self, path: str) -> HelpNode | None:
        return self.gateway.help_tree.node(path)

    def candidates(self, text: str) -> list[str]:
        """The absolute paths ``text`` may mean, the likeliest first."""
        text = text.strip()
        if text in ("", "."):
            return [self.cwd]
        if text.startswith(ROOT):
            return [text.strip("/").strip(".")]
        parts = text.split("/")
        base = self.cwd
        climbed = False
        while parts and parts[0] == PARENT:
            base, climbed = parent(base), True
            parts.pop(0)
        rest = ".".join(p.strip(".") for p in parts if p.strip("."))
        if climbed:
            return [join(base, rest)]
        return [join(self.cwd, rest), rest] if self.cwd else [rest]

    def group(self, text: str) -> str | None:
        """The group ``text`` names (the root is ``""``), or ``None``."""
        for path in self.candidates(text):
            node = self.node(path)
            if node is not None and (node.children or not path):
                return path
        return None

    def op(self, text: str) -> OpRecord | None:
        """The visible op ``text`` names, relative or absolute, or by tool name."""
        for path in self.candidates(text):
            node = self.node(path)
            if node is not None and node.record is not None:
                return node.record
        record = self.gateway.registry.resolve(text)
        return record if record is not None and self.gateway.is_visible(record.op) else None

    def guess(self, text: str) -> str:
        """The path to hand the gateway for a name that resolves to nothing, so its hints fit."""
        first = text.lstrip("/").split(".")[0]
        candidates = self.candidates(text)
        if text.startswith(ROOT) or first in self.gateway.help_tree.root.children:
            return candidates[-1]
        return candidates[0]

    def arguments(self, record: OpRecord) -> list[dict[str, Any]]:
        """The op's argument rows as help describes them: required ones first."""
        rows = self._args.get(record.op)
        if rows is None:
            rows = self._args[record.op] = describe_args(record.parameters, description_limit=None)
        return rows

    def argument(self, record: OpRecord, name: str) -> dict[str, Any] | None:
        return next((row for row in self.arguments(record) if row["name"] == name), None)

    def refresh(self) -> None:
        """After the scope changes: stay put if the current path still exists, else go to the root."""
        if self.group(ROOT + self.cwd) is None:
            self.cwd = ""
