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

from collections.abc import Sequence
from typing import Any

from . import _fuzzy
from ._sqlite_search import CANDIDATES, SearchReads, candidate_filters, candidate_hits

_QUERY = "to_tsquery('simple', ?)"
_HEADLINE = "StartSel=\"\",StopSel=\"\",MaxWords=12,MinWords=5,FragmentDelimiter=\"…\""


def _term(word: str, prefix: bool) -> str:
    return "'" + word.replace("'", "''") + "'" + (":*" if prefix else "")


def keyword_query(text: str, whole_words: bool = False) -> str | None:
    """A tsquery requiring every typed word as a word prefix (or, with ``whole_words``, whole)."""
    typed = _fuzzy.words(text)
    return " & ".join(_term(w, not whole_words) for w in typed) if typed else None


class PGSearchReads(SearchReads):
    """``search`` and ``search_all`` for PostgreSQL: the shared searches with this dialect's parts."""

    _OR = " | "
    _term = staticmethod(_term)

    @staticmethod
    def _keyword_match(text: str, whole_words: bool) -> str | None:
        return keyword_query(text, whole_words)

    @staticmethod
    def _keyword_sql(spec: Any, where: str) -> tuple[str, str]:
        joined = (
            f"FROM search_text s JOIN {spec.table} t ON t.id = s.entity_id "
            f"WHERE s.kind = '{spec.kind}' AND s.words @@ {_QUERY} AND {where}"
        )
        return joined, f"ts_rank(s.words, {_QUERY}) DESC, t.seq"

    @staticmethod
    def _order_params(match: str) -> list[str]:
        return [match]

    def _candidates(self, match: str, kinds: Sequence[str] | None, project_id: str | None) -> list[dict]:
        where, params = candidate_filters(f"words @@ {_QUERY}", match, kinds, project_id)
        rows = self._fetch(
            "SELECT kind, entity_id, project_id, name, body,"
            f" CASE WHEN body IS NULL OR body = '' THEN NULL ELSE ts_headline('simple', body, {_QUERY}, '{_HEADLINE}') END,"
            f" ts_rank('{{1,0,0,0}}', words, {_QUERY})"
            f" FROM search_text WHERE {' AND '.join(where)}"
            f" ORDER BY ts_rank(words, {_QUERY}) DESC, kind, entity_id LIMIT {CANDIDATES}",
            [match, match, *params, match],
        )
        return candidate_hits(rows)
