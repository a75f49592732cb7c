"""Keyword and fuzzy search on PostgreSQL's full-text search.

``search_text`` holds one tsvector per entity (display name weighted A, long
text D; see migrations_pg/0001_initial.sql), so ``ts_rank``'s default weights
make a name hit count ten times a body hit, as FTS5's ``bm25(10.0, 1.0)``
does in SQLite. Typed words become prefix terms (``'word':*``); they are
letters and digits only (``_fuzzy.words``), so no typed text is ever read as
query syntax. Fuzzy search looks for near-misses in ``search_terms`` with the
shared ``_vocabulary_near`` and scores hits with the shared ``_fuzzy``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import _fuzzy
from ._kinds import spec_for
from ._protocol import Page
from ._sqlite_base import column_list
from ._sqlite_filters import checked_fields, page_params, where_clause
from ._sqlite_search import CANDIDATES, SearchReads

_QUERY = "to_tsquery('simple', ?)"
_HEADLINE = "StartSel=\"\",StopSel=\"\",MaxWords=12,MinWords=5,FragmentDelimiter=\"…\""


def _term(word: str, prefix: bool) -> str:
    return "'" + word.replace("'", "''") + "'" + (":*" if prefix else "")


def keyword_query(text: str, whole_words: bool = False) -> str | None:
    """A tsquery requiring every typed word as a word prefix (or, with ``whole_words``, whole)."""
    typed = _fuzzy.words(text)
    return " & ".join(_term(w, not whole_words) for w in typed) if typed else None


class PGSearchReads(SearchReads):
    """``search`` and ``search_all`` for PostgreSQL."""

    def search(
        self,
        kind: str,
        text: str,
        filters: Mapping[str, Any] | None = None,
        *,
        limit: int | None = None,
        offset: int = 0,
        fields: Sequence[str] | None = None,
        whole_words: bool = False,
    ) -> Page:
        spec = spec_for(kind)
        filters = dict(filters or {})
        picked = checked_fields(spec, fields)
        query = keyword_query(text, whole_words)
        if query is None:
            return Page([], 0)
        where, params = where_clause(spec, filters, alias="t")
        lim, off = page_params(limit, offset)
        joined = (
            f"FROM search_text s JOIN {spec.table} t ON t.id = s.entity_id "
            f"WHERE s.kind = '{spec.kind}' AND s.words @@ {_QUERY} AND {where}"
        )
        sql = (f"SELECT {column_list(spec.columns, 't')} {joined}"
               f" ORDER BY ts_rank(s.words, {_QUERY}) DESC, t.seq LIMIT ? OFFSET ?")
        rows = self._entity_rows(spec, sql, [query, *params, query, lim, off], picked)
        total, exact = self._count(joined, [query, *params], limit, offset, len(rows))
        signature = ["search", kind, text, filters, limit, offset, *(["whole_words"] if whole_words else [])]
        self._reads.saw_query(signature, total if exact else [total], [(kind, r["id"]) for r in rows])
        return Page(rows, total, exact)

    def _fuzzy_match(self, text: str) -> str | None:
        """Each typed word as a prefix, OR-ed with the stored terms it may be a typo of."""
        typed = _fuzzy.words(text)
        if not typed:
            return None
        groups = []
        for word in typed:
            near = _fuzzy.close_terms(word, self._vocabulary_near(word))
            groups.append("(" + " | ".join([_term(word, True)] + [_term(t, False) for t in near]) + ")")
        return " | ".join(groups)

    def _candidates(self, match: str, kinds: Sequence[str] | None, project_id: str | None) -> list[dict]:
        where, params = [f"words @@ {_QUERY}"], [match]
        if kinds:
            where.append(f"kind IN ({', '.join('?' * len(kinds))})")
            params.extend(kinds)
        if project_id is not None:
            where.append("project_id = ?")
            params.append(project_id)
        rows = self._fetch(
            "SELECT kind, entity_id, project_id, name, body,"
            f" CASE WHEN body IS NULL OR body = '' THEN NULL ELSE ts_headline('simple', body, {_QUERY}, '{_HEADLINE}') END,"
            f" ts_rank('{{1,0,0,0}}', words, {_QUERY})"
            f" FROM search_text WHERE {' AND '.join(where)}"
            f" ORDER BY ts_rank(words, {_QUERY}) DESC, kind, entity_id LIMIT {CANDIDATES}",
            [match, match, *params, match],
        )
        return [
            {
                "kind": kind, "id": id, "name": name, "project_id": pid,
                "snippet": snippet if body else name, "body_hit": 1.0 if body_rank else 0.0,
            }
            for kind, id, pid, name, body, snippet, body_rank in rows
        ]
