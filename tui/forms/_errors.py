"""Field errors (``{field, path, code, message}``, ``path`` a JSON pointer) placed on a form's inputs."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ._values import Path


def pointer_to_path(pointer: str) -> Path:
    """``/entities/0/temp_id`` -> ``("entities", 0, "temp_id")``."""
    if not pointer or pointer == "/":
        return ()
    parts: list[str | int] = []
    for raw in pointer.lstrip("/").split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        parts.append(int(part) if part.isdigit() else part)
    return tuple(parts)


def short_message(error: dict[str, Any]) -> str:
    """The message as it reads next to its own input (the input already says which argument)."""
    code = error.get("code")
    if code == "missing_required":
        return "required"
    return str(error.get("message") or code or "invalid")


@dataclass
class PlacedErrors:
    """Errors by the path of the input that shows them, and those no input can show."""

    by_path: dict[Path, list[str]] = field(default_factory=dict)
    unplaced: list[str] = field(default_factory=list)
    missing_only: set[Path] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.by_path or self.unplaced)


def place_errors(field_errors: Iterable[dict[str, Any]], paths: set[Path]) -> PlacedErrors:
    """Each error goes to its own input, else to the nearest group that holds it, else to the summary."""
    placed = PlacedErrors()
    codes: dict[Path, set[str]] = {}
    for error in field_errors:
        target = pointer_to_path(str(error.get("path") or ""))
        exact = target
        while target and target not in paths:
            target = target[:-1]
        if not target:
            placed.unplaced.append(f"{error.get('field') or 'args'}: {error.get('message')}")
            continue
        message = short_message(error) if target == exact else f"{'.'.join(map(str, exact[len(target):]))}: {error.get('message')}"
        placed.by_path.setdefault(target, []).append(message)
        codes.setdefault(target, set()).add(str(error.get("code")))
    placed.missing_only = {p for p, c in codes.items() if c == {"missing_required"}}
    return placed
