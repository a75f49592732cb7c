"""Checks every write handler makes before it touches the store.

The store would refuse most bad references on its own, but as a bare
``NotFound`` or ``Conflict`` with no argument path. Checking first lets a
handler name the argument at fault (``args.moves[2].plan_id``), report every
problem of a call at once, and fail before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..exec._errors import InvalidArguments, NotFoundError
from ..store._kinds import KINDS
from ..store._nesting import CUT_MARKER, MAX_VALUE_DEPTH, cut_marker_at, too_deep
from ._summaries import display_name

Path = tuple[str | int, ...]


def field_error(path: Path, message: str, code: str = "invalid_value", **extra: Any) -> dict[str, Any]:
    """A field error shaped like the argument validator's (``field``, ``path``, ``code``, ``message``)."""
    field = "args" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
    return {"field": field, "path": "/" + "/".join(map(str, path)), "code": code,
            "message": f"{field}: {message}", **extra}


class Problems:
    """Field errors collected over a whole call, so that one retry can fix them all.

    All missing ids give NOT_FOUND; anything else wrong makes it VALIDATION_ERROR.
    """

    def __init__(self) -> None:
        self.errors: list[dict[str, Any]] = []
        self._only_missing = True

    def add(self, error: dict[str, Any], *, missing: bool = False) -> None:
        self.errors.append(error)
        self._only_missing = self._only_missing and missing

    def raise_if_any(self, action: str) -> None:
        if not self.errors:
            return
        count = len(self.errors)
        message = f"cannot {action}: {self.errors[0]['message']}"
        if count > 1:
            message += f" (and {count - 1} more problem{'s' if count > 2 else ''})"
        error = NotFoundError if self._only_missing else InvalidArguments
        raise error(message, field_errors=self.errors)

    def lookup(self, tx: Any, kind: str, id: str, path: Path) -> dict | None:
        """The row of ``kind`` with ``id``, or ``None`` after noting why not."""
        row = tx.find(kind, id)
        if row is not None:
            return row
        actual = tx.kind_of(id)
        if actual is None:
            self.add(field_error(path, f"no {kind} has id {id}", "not_found"), missing=True)
        else:
            self.add(field_error(path, f"{id} is a {actual}, not a {kind}", "wrong_kind",
                                 expected=kind, actual=actual))
        return None

    def in_project(self, tx: Any, kind: str, id: str, project_id: str, path: Path) -> dict | None:
        """As :meth:`lookup`, and the entity must belong to ``project_id``."""
        row = self.lookup(tx, kind, id, path)
        if row is None:
            return None
        owner = row["id"] if kind == "project" else row.get("project_id")
        if owner != project_id:
            self.add(field_error(
                path, f"{kind} {id} ({display_name(kind, row)!r}) belongs to project {owner}, "
                f"not to project {project_id}", "other_project", project_id=owner))
            return None
        return row


def reference_fields(kind: str) -> Sequence[str]:
    """The id columns of ``kind`` that point inside its own project (plan_id, parent_id...)."""
    return tuple(f.name for f in KINDS[kind].fields if f.references and f.name != "project_id")


def check_references(problems: Problems, tx: Any, kind: str, fields: Mapping[str, Any],
                     project_id: str, prefix: Path = ()) -> None:
    """Every non-null reference in ``fields`` must name an entity of ``project_id``."""
    spec = KINDS[kind].field_map
    for name in reference_fields(kind):
        target = fields.get(name)
        if target is not None:
            problems.in_project(tx, spec[name].references, target, project_id, (*prefix, name))


def check_nesting(problems: Problems, value: Any, path: Path) -> None:
    """A JSON object argument (``props``) nests at most MAX_VALUE_DEPTH levels and holds no cut copy.

    The store refuses such values too, but only by column name; here the
    error points at the level too many (``args.entities[2].props.a.b...``).
    """
    if not isinstance(value, dict):
        return
    deep = too_deep(value, MAX_VALUE_DEPTH)
    if deep is not None:
        problems.add(field_error((*path, *deep), f"nested more than {MAX_VALUE_DEPTH} levels deep; flatten it "
                                 "(keep deep structure as separate keys, or as a JSON string)",
                                 "too_deep", max_depth=MAX_VALUE_DEPTH))
    cut = cut_marker_at(value)
    if cut is not None:
        problems.add(field_error((*path, *cut), f"holds {CUT_MARKER!r}, the cut copy of a value stored too deep; "
                                 "set it to null or to a flatter value", "cut_value"))


def require_project(tx: Any, project_id: str, path: Path = ("project_id",)) -> dict:
    problems = Problems()
    row = problems.lookup(tx, "project", project_id, path)
    problems.raise_if_any("find the project")
    assert row is not None
    return row
