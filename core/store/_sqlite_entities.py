"""Reading, creating and updating entities of every kind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from ._errors import Conflict, NotFound
from ._kinds import KINDS, KindSpec, spec_for
from ._protocol import COUNT_CAP, Page
from ._rows import Shape, checked_changes, copy_row, encode, encode_json, ids_may_be_taken, json_columns_of, new_row
from ._sqlite_base import SQLiteTxCore
from ._sqlite_filters import Order, checked_fields, order_clause, page_params, where_clause

TITLE_SPACES = (9, 10, 13, 160)
"""Characters besides the space that a title key drops: tab, line feed, carriage return, no-break space."""


def title_key_sql(operand: str, char_function: str = "char") -> str:
    """SQL for ``operand`` with ASCII letters lowered and spaces dropped: the key of migration 0010's indexes.

    The indexes hold this very expression (SQLite matches an index on an
    expression only to the same expression), so change it only with a new
    migration. PostgreSQL spells ``char`` as ``chr``.
    """
    expression = f"replace({operand}, ' ', '')"
    for code in TITLE_SPACES:
        expression = f"replace({expression}, {char_function}({code}), '')"
    return f"lower({expression})"


_TITLE_KEY_TABLE = str.maketrans({**{chr(code): None for code in (32, *TITLE_SPACES)},
                                  **{chr(code): chr(code + 32) for code in range(ord("A"), ord("Z") + 1)}})


def title_key(title: str) -> str:
    """What SQLite's :func:`title_key_sql` makes of ``title``, computed here.

    SQLite's own ``lower`` folds the ASCII letters only, so dropping the
    spaces and folding A-Z is the same key. Binding it saves evaluating the
    six nested functions on the parameter: 60 to 35 us of the look-up's
    CPU in a create; the stored side stays the indexed expression.
    """
    return title.translate(_TITLE_KEY_TABLE)


@lru_cache(maxsize=16)
def _title_where(display: str, char_function: str, bound: bool) -> str:
    """The title check's WHERE: the key bound as computed by :func:`title_key`, or computed by the database.

    Spelled once per kind and dialect rather than on every create (seven nested strings each time).
    """
    key = title_key_sql(display, char_function)
    return f"project_id = ? AND {key} = {'?' if bound else title_key_sql('?', char_function)}"


def _insert_sql(spec: KindSpec) -> str:
    return f"INSERT INTO {spec.table} ({', '.join(spec.columns)}) VALUES ({', '.join('?' * len(spec.columns))})"


_INSERT_SQL: dict[str, str] = {}
"""Each kind's INSERT, made on its first insert (PostgreSQL's transactions translate it as they run it)."""


_KIND_OF_SQL = " UNION ALL ".join(
    f"SELECT '{spec.kind}' FROM {spec.table} WHERE id = ?1" for spec in KINDS.values()
)


class EntityReads(SQLiteTxCore):
    """``get``, ``list`` and friends."""

    def get(self, kind: str, id: str) -> dict:
        return self._require(kind, id)

    def find(self, kind: str, id: str) -> dict | None:
        return self._find(kind, id)

    def kind_of(self, id: str) -> str | None:
        rows = self._fetch(_KIND_OF_SQL + " LIMIT 1", (id,))
        return rows[0][0] if rows else None

    def get_entity(self, id: str) -> tuple[str, dict]:
        kind = self.kind_of(id)
        if kind is None:
            raise NotFound("entity", id)
        return kind, self._require(kind, id)

    def list(
        self,
        kind: str,
        filters: Mapping[str, Any] | None = None,
        *,
        limit: int | None = None,
        offset: int = 0,
        order: Order = None,
        fields: Sequence[str] | None = None,
        shape: Shape | None = None,
    ) -> Page:
        spec = spec_for(kind)
        filters = dict(filters or {})
        where, params = where_clause(spec, filters)
        order_sql = order_clause(spec, order)
        lim, off = page_params(limit, offset)
        picked = checked_fields(spec, fields if shape is None else [column for _, column in shape])
        rows = self._select(spec, where, [*params, lim, off], f"ORDER BY {order_sql} LIMIT ? OFFSET ?", picked, shape)
        total, exact = self._count(f"FROM {spec.table} WHERE {where}", params, limit, offset, len(rows))
        if self._observing:
            signature = ["list", kind, filters, limit, offset, order]
            self._reads.saw_query(signature, total if exact else [total], [(kind, r["id"]) for r in rows])
        return Page(rows, total, exact)

    def list_titled(self, kind: str, project_id: str, title: str, *, limit: int | None = None,
                    fields: Sequence[str] | None = None) -> Page:
        """Rows of ``project_id`` whose display name equals ``title`` but for ASCII case and spaces, oldest first.

        Spaces are the space, tab, line breaks and the no-break space. A
        candidate list, one step down an index (migration 0010, for tasks and
        documents) whatever the store's size: the caller narrows it to its own
        notion of equal.
        """
        spec = spec_for(kind)
        bound = self._TITLE_KEY_BOUND
        where = _title_where(spec.display, self._CHAR_FUNCTION, bound)
        params = [project_id, title_key(title) if bound else title]
        lim, _ = page_params(limit, 0)
        rows = self._select(spec, where, [*params, lim], "ORDER BY seq LIMIT ?", checked_fields(spec, fields))
        total, exact = self._count(f"FROM {spec.table} WHERE {where}", params, limit, 0, len(rows))
        self._reads.saw_query(["list_titled", kind, project_id, title, limit], total if exact else [total],
                              [(kind, r["id"]) for r in rows])
        return Page(rows, total, exact)

    def _count(self, source: str, params: list, limit: int | None, offset: int, shown: int) -> tuple[int, bool]:
        """How many rows ``source`` (``FROM ... WHERE ...``) matches, counting no further than needed.

        ``shown`` is how many rows the page (``limit`` from ``offset``, read in
        the same transaction) held. A page that ended before its limit, with
        rows on it or starting at 0, already tells the exact total, and nothing
        is counted. Otherwise counting stops past :data:`COUNT_CAP`, or past the
        end of the page asked for if that is further, so ``has_more`` stays
        exact; past the stop the total is a lower bound (``exact`` false).
        """
        if (limit is None or shown < limit) and (shown or not offset):
            return offset + shown, True
        if limit is None:
            return self._fetch(f"SELECT count(*) {source}", params)[0][0], True
        stop = max(COUNT_CAP, offset + limit)
        counted = self._fetch(f"SELECT count(*) FROM (SELECT 1 {source} LIMIT ?) AS matches", [*params, stop + 1])[0][0]
        return counted, counted <= stop


class EntityWrites(EntityReads):
    """``insert`` and ``update``, plus the row writes other mixins reuse."""

    def insert(self, kind: str, fields: Mapping[str, Any]) -> dict:
        spec = spec_for(kind)
        row = new_row(spec, fields, self._clock())
        if not (self._locked or kind == "document") and self._in_current_snapshot(lambda: self._checked_insert(spec, row, fields, snapshot=True)):
            return copy_row(row)
        self._lock_for_write()  # the checks below must see what the write will be applied to
        found = self._checked_insert(spec, row, fields)
        if self._WRITES_FROM_SNAPSHOT and kind != "document":
            # Read under the write lock and untouched by the INSERT (its triggers write the search
            # index only): what the workspace holds, until the next write (see known_row).
            self._found_current = found
        return copy_row(row)

    def _checked_insert(self, spec: KindSpec, row: dict, fields: Mapping[str, Any], *, snapshot: bool = False) -> dict[tuple[str, str], dict]:
        """Check ``row`` against the workspace and insert it; the rows its references named, by (kind, id).

        ``snapshot``: run in a transaction that has not taken the write lock
        yet (see ``_in_current_snapshot``), where the INSERT's own foreign key
        check stands in for reading the project: a row it refuses is checked
        again, under the lock, for the error that names the missing entity.
        """
        if "id" not in fields and ids_may_be_taken() and self.kind_of(row["id"]) is not None:
            raise Conflict(
                f"the id {row['id']} this call was to create is already taken: its dry-run's ids were used by an earlier run; dry-run again",
                id=row["id"],
            )
        found = self._check_references(spec, row, skip=("project_id",) if snapshot else ())
        if spec.kind == "document":
            self._place_new_document(row)
        self._insert_row(spec, row)
        return found

    def update(self, kind: str, id: str, changes: Mapping[str, Any]) -> tuple[dict, dict]:
        spec = spec_for(kind)
        self._lock_for_write()
        checked = checked_changes(spec, changes)
        before = self._require(kind, id)
        current = before
        if kind == "document" and checked.keys() & {"parent_id", "position"}:
            parent_id = checked.pop("parent_id", before["parent_id"])
            self.move_document(id, parent_id, checked.pop("position", None))
            current = self._require(kind, id)
        after = {**current, **checked}
        self._check_references(spec, after, only=checked.keys())
        self._update_row(spec, current, after)
        return before, self._require(kind, id)

    # -- shared row writes ---------------------------------------------------

    def _insert_row(self, spec: KindSpec, row: dict) -> None:
        sql = _INSERT_SQL.get(spec.kind) or _INSERT_SQL.setdefault(spec.kind, _insert_sql(spec))
        json_columns = json_columns_of(spec)
        # The values bound in column order, JSON columns encoded, without an encoded copy of the row first.
        self._run(sql, [encode_json(row[n]) if n in json_columns and row[n] is not None else row[n] for n in spec.columns])
        self._reads.wrote(spec.kind, row["id"])
        self.changes.entity_created(spec.kind, row)

    def _update_row(self, spec: KindSpec, before: dict, after: dict) -> dict:
        """Write the fields that differ (bumping ``updated_at``); a no-op if none do."""
        changed = [n for n in spec.columns if n != "updated_at" and before.get(n) != after.get(n)]
        if not changed:
            return before
        after = {**after, "updated_at": self._clock()}
        changed.append("updated_at")
        values = encode({n: after[n] for n in changed}, json_columns_of(spec))
        assignments = ", ".join(f"{n} = ?" for n in changed)
        self._run(
            f"UPDATE {spec.table} SET {assignments} WHERE id = ?",
            [values[n] for n in changed] + [before["id"]],
        )
        self._reads.wrote(spec.kind, before["id"])
        self.changes.entity_updated(spec.kind, before, after)
        return after

    def _check_references(self, spec: KindSpec, row: dict, only: Any = None, skip: tuple[str, ...] = ()) -> dict[tuple[str, str], dict]:
        """Every id column must name an existing entity of the same project (``skip``: columns checked elsewhere).

        Returns the rows found, by (kind, id).
        """
        found: dict[tuple[str, str], dict] = {}
        for field in spec.fields:
            target = row.get(field.name)
            if field.references is None or target is None:
                continue
            if (only is not None and field.name not in only) or field.name in skip:
                continue
            referenced = self._find(field.references, target)
            if referenced is None:
                raise NotFound(field.references, target)
            if field.name != "project_id" and referenced["project_id"] != row.get("project_id"):
                raise Conflict(
                    f"{field.name}: {field.references} {target} belongs to another project",
                    field=field.name,
                )
            found[field.references, target] = referenced
        return found
