"""The one place where the shared SQL becomes PostgreSQL's: each rewrite, and what it leaves alone."""

from __future__ import annotations

import pytest

from opgate.core.store._pg_sql import translate


def test_placeholders_become_psycopgs_and_numbered_ones_repeat_their_value():
    plain = translate("SELECT a FROM t WHERE b = ? AND c = ?")
    assert plain.sql == "SELECT a FROM t WHERE b = %s AND c = %s"
    assert plain.params(["x", "y"]) == ["x", "y"]
    numbered = translate("SELECT 1 FROM t WHERE src_id = ?1 OR dst_id = ?1 AND rel = ?2")
    assert numbered.sql.count("%s") == 3
    assert numbered.params(["id", "rel"]) == ["id", "id", "rel"]


def test_sqlite_spellings_become_postgresqls():
    assert translate("WHERE parent_id IS ?").sql == "WHERE parent_id IS NOT DISTINCT FROM %s"
    assert translate("ORDER BY created_at, rowid").sql == "ORDER BY created_at, seq"
    page = translate("SELECT a FROM t WHERE b = ? ORDER BY a LIMIT ? OFFSET ?")
    assert page.params(["b", -1, 0]) == ["b", None, 0]  # SQLite's "no limit"
    assert page.params(["b", 5, 0]) == ["b", 5, 0]


def test_text_in_quotes_is_left_alone_and_percent_signs_are_escaped():
    statement = translate("SELECT '?1 is 50%' || ? FROM t")
    assert statement.sql == "SELECT '?1 is 50%%' || %s FROM t"
    assert statement.params(["x"]) == ["x"]


def test_insert_or_replace_becomes_an_upsert_on_the_primary_key():
    statement = translate("INSERT OR REPLACE INTO store_meta (key, value) VALUES ('seeded', ?)")
    assert statement.sql == ("INSERT INTO store_meta (key, value) VALUES ('seeded', %s)"
                             " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value")
    with pytest.raises(ValueError, match="REPLACE_KEYS"):
        translate("INSERT OR REPLACE INTO api_tokens (id, hash) VALUES (?, ?)")
