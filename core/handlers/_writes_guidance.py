"""Read before write: what a write handler tells the caller about the workspace it writes into.

Seed 001's executor reads before it writes, and so do these handlers: a new
task or document whose title is already taken in its project is still
created, with a warning naming the one that exists (the usual cause is a
model that lost track of what it made); a ``type_key`` that no template
carries is kept as a free-form key, with a pointer to
``onto.template.request``, the op that asks for a template.
"""

from __future__ import annotations

import difflib
from typing import Any

from ..exec._handler import HandlerContext
from ..store._kinds import FOLDER_TYPE_KEY, KINDS

# Structural keys the ontology itself uses; no template is expected for them.
BUILT_IN_TYPE_KEYS = frozenset({FOLDER_TYPE_KEY, "document.context"})
# Rows compared by normalised title; the index or keyword search puts duplicates first.
TITLE_CANDIDATES = 20


def _normal(text: str) -> str:
    return " ".join(text.casefold().split())


def rows_with_title(tx: Any, kind: str, project_id: str, title: str) -> list[dict]:
    """The ``kind`` rows of ``project_id`` titled ``title`` (ignoring case and spacing), oldest first."""
    display = KINDS[kind].display
    wanted = _normal(title)
    shown = (display, "state_key", "created_at")
    # Titles equal but for ASCII case and spaces, one step down an index (migration 0010);
    # keyword search cost more the more entities share the title's words.
    candidates = tx.list_titled(kind, project_id, title, limit=TITLE_CANDIDATES, fields=shown).rows
    if not title.isascii():
        # Other letters' case and other spaces the index key keeps: whole words find those.
        candidates += tx.search(kind, title, {"project_id": project_id}, limit=TITLE_CANDIDATES, fields=shown, whole_words=True).rows
    found = {row["id"]: row for row in candidates if _normal(row[display]) == wanted}
    return sorted(found.values(), key=lambda row: (row["created_at"], row["id"]))


def warn_if_title_taken(ctx: HandlerContext, kind: str, project_id: str, title: str, where: str = "") -> None:
    taken = rows_with_title(ctx.tx, kind, project_id, title)
    if not taken:
        return
    first = taken[0]
    others = f" (and {len(taken) - 1} more with that title)" if len(taken) > 1 else ""
    ctx.warn(
        f"{where}a {kind} titled {first[KINDS[kind].display]!r} already exists in this project "
        f"(id {first['id']}, state {first['state_key']}){others}; this call adds another. If the user meant "
        f"the existing {kind}, work on it instead (onto.{kind}.update) and delete the new one (onto.{kind}.delete)")


def warn_if_no_template(ctx: HandlerContext, kind: str, type_key: str | None, where: str = "") -> None:
    """Guidance toward ``onto.template.request`` when no template of scope ``kind`` has ``type_key``."""
    if type_key is None or type_key in BUILT_IN_TYPE_KEYS:
        return
    if ctx.tx.list("template", {"scope": kind, "type_key": type_key}, limit=1).rows:
        return
    known = [row["type_key"] for row in ctx.tx.list("template", {"scope": kind}, limit=50).rows]
    close = difflib.get_close_matches(type_key, known, n=3, cutoff=0.6)
    if close:
        hint = f" The closest {kind} templates: {', '.join(close)}."
    elif known:
        hint = f" The {kind} templates: {', '.join(known[:8])}."
    else:
        hint = f" There are no {kind} templates yet."
    ctx.warn(
        f"{where}no {kind} template has type_key {type_key!r}, so it is kept as a free-form key.{hint} "
        f"If the user wants a template for it, ask for one with onto.template.request "
        f"(scope {kind!r}, type_key {type_key!r}); onto.template.list shows the templates there are")
