"""Keyword search within a kind and fuzzy search across kinds, on FTS5.

The ``search_text`` index holds each entity's display name and long text
(kept in step by triggers, see migrations/0001_initial.sql); its rowid is
``seq * 16 + kind number``, so a hit joins back to its table by primary key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import _fuzzy
from ._kinds import KINDS, spec_for
from ._protocol import Page
from ._sqlite_base import column_list
from ._sqlite_entities import EntityReads
from ._sqlite_filters import checked_fields, page_params, where_clause

CANDIDATES = 200  # hits re-scored in Python; bm25 picks them


def _quoted(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def keyword_match(text: str, whole_words: bool = False) -> str | None:
    """An FTS5 expression requiring every typed word as a word prefix (or, with ``whole_words``, whole)."""
    typed = _fuzzy.words(text)
    return " AND ".join(_quoted(w) + ("" if whole_words else "*") for w in typed) if typed else None


def candidate_filters(
    match_clause: str, match: str, kinds: Sequence[str] | None, project_id: str | None,
) -> tuple[list[str], list]:
    """The WHERE terms and parameters of a fuzzy search's candidates."""
    where, params = [match_clause], [match]
    if kinds:
        where.append(f"kind IN ({', '.join('?' * len(kinds))})")
        params.extend(kinds)
    if project_id is not None:
        where.append("project_id = ?")
        params.append(project_id)
    return where, params


def candidate_hits(rows: Sequence[tuple]) -> list[dict]:
    """Hits from rows of (kind, id, project id, name, body, snippet, body rank)."""
    return [
        {
            "kind": kind, "id": id, "name": name, "project_id": pid,
            "snippet": snippet if body else name, "body_hit": 1.0 if body_rank else 0.0,
        }
        for kind, id, pid, name, body, snippet, body_rank in rows
    ]


class SearchReads(EntityReads):
    """``search`` and ``search_all``."""

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
        match = self._keyword_match(text, whole_words)
        if match is None:
            return Page([], 0)
        where, params = where_clause(spec, filters, alias="t")
        lim, off = page_params(limit, offset)
        joined, order = self._keyword_sql(spec, where)
        sql = f"SELECT {column_list(spec.columns, 't')} {joined} ORDER BY {order} LIMIT ? OFFSET ?"
        rows = self._entity_rows(spec, sql, [match, *params, *self._order_params(match), lim, off], picked)
        total, exact = self._count(joined, [match, *params], limit, offset, len(rows))
        signature = ["search", kind, text, filters, limit, offset, *(["whole_words"] if whole_words else [])]
        self._reads.saw_query(signature, total if exact else [total], [(kind, r["id"]) for r in rows])
        return Page(rows, total, exact)

    def search_all(
        self,
        text: str,
        *,
        kinds: Sequence[str] | None = None,
        project_id: str | None = None,
        limit: int = 20,
    ) -> list[dict]:
        for kind in kinds or ():
            spec_for(kind)
        match = self._fuzzy_match(text)
        hits = self._candidates(match, kinds, project_id) if match else []
        for index, hit in enumerate(hits):
            rank_credit = 1.0 / (1.0 + index / 10)
            hit["score"] = round(
                0.75 * _fuzzy.name_score(text, hit["name"]) + 0.15 * hit.pop("body_hit")
                + 0.10 * rank_credit, 3,
            )
        hits.sort(key=lambda h: (-h["score"], h["name"], h["id"]))
        hits = hits[: max(limit, 0)]
        self._observe_hits(hits)
        signature = ["search_all", text, list(kinds or ()), project_id, limit]
        self._reads.saw_query(signature, len(hits), [(h["kind"], h["id"]) for h in hits])
        return hits

    # The dialect's parts of a keyword search; PostgreSQL overrides them.
    _OR = " OR "

    @staticmethod
    def _keyword_match(text: str, whole_words: bool) -> str | None:
        return keyword_match(text, whole_words)

    @staticmethod
    def _term(word: str, prefix: bool) -> str:
        return _quoted(word) + ("*" if prefix else "")

    @staticmethod
    def _keyword_sql(spec: Any, where: str) -> tuple[str, str]:
        """The FROM/WHERE of a keyword search in one kind, and its ORDER BY."""
        joined = (
            f"FROM search_text s JOIN {spec.table} t ON t.seq = s.rowid >> 4 "
            f"WHERE search_text MATCH ? AND s.rowid & 15 = {spec.number} AND {where}"
        )
        return joined, "s.rank, t.seq"

    @staticmethod
    def _order_params(match: str) -> list[str]:
        """Parameters the ORDER BY itself takes (PostgreSQL ranks by the query again)."""
        return []

    def _fuzzy_match(self, text: str) -> str | None:
        """Each typed word as a prefix, OR-ed with the stored terms it may be a typo of."""
        typed = _fuzzy.words(text)
        if not typed:
            return None
        groups = []
        for word in typed:
            near = _fuzzy.close_terms(word, self._vocabulary_near(word))
            terms = [self._term(word, True)] + [self._term(t, False) for t in near]
            groups.append("(" + self._OR.join(terms) + ")")
        return self._OR.join(groups)

    def _vocabulary_near(self, word: str) -> list[str]:
        """Indexed terms that start like ``word`` and are about as long.

        Reading the whole vocabulary costs seconds once it holds a hundred
        thousand terms, so only terms starting with the word's first or second
        letter are considered (a typo there, or two swapped leading letters,
        is still found); a wrong first letter is not.
        """
        slack = _fuzzy.allowed_typos(word)
        if slack == 0:
            return []
        terms: list[str] = []
        for letter in dict.fromkeys(word[:2]):
            terms += [r[0] for r in self._fetch(
                "SELECT term FROM search_terms WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?",
                (letter, chr(ord(letter) + 1), len(word) - slack, len(word) + slack),
            )]
        return terms

    def _candidates(self, match: str, kinds: Sequence[str] | None, project_id: str | None) -> list[dict]:
        where, params = candidate_filters("search_text MATCH ?", match, kinds, project_id)
        rows = self._fetch(
            "SELECT kind, entity_id, project_id, name, body,"
            " snippet(search_text, 1, '', '', '…', 12), bm25(search_text, 0.0, 1.0)"
            f" FROM search_text WHERE {' AND '.join(where)} ORDER BY rank LIMIT {CANDIDATES}",
            params,
        )
        return candidate_hits(rows)

    def _observe_hits(self, hits: list[dict]) -> None:
        by_kind: dict[str, list[str]] = {}
        for hit in hits:
            by_kind.setdefault(hit["kind"], []).append(hit["id"])
        for kind, ids in by_kind.items():
            self._select(KINDS[kind], f"id IN ({', '.join('?' * len(ids))})", ids)
