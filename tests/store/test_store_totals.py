"""Totals counted up to COUNT_CAP, and rows narrowed to the fields a caller shows."""

from __future__ import annotations

import pytest
from store_testing import P1, TASK_SPEC

from opgate.core.store import COUNT_CAP, InvalidValue

MORE = COUNT_CAP + 5


@pytest.fixture
def crowded(ws):
    """The small workspace plus COUNT_CAP + 5 tasks titled 'bulk' in P1."""
    with ws.write() as tx:
        for n in range(MORE):
            tx.insert("task", {"project_id": P1, "title": f"bulk {n}"})
    return ws


def test_a_total_under_the_cap_is_exact(ws):
    with ws.read() as tx:
        page = tx.list("task", {"project_id": P1}, limit=1)
    assert page.total_exact and page.total == 3


def test_past_the_cap_the_total_is_a_lower_bound(crowded):
    with crowded.read() as tx:
        page = tx.list("task", {"project_id": P1}, limit=10)
        found = tx.search("task", "bulk", limit=10)
    for counted in (page, found):
        assert not counted.total_exact and counted.total == COUNT_CAP + 1 and len(counted.rows) == 10


def test_counting_reaches_past_the_page_asked_for(crowded):
    with crowded.read() as tx:
        last = tx.list("task", {"project_id": P1}, limit=50, offset=COUNT_CAP)
        beyond = tx.list("task", {"project_id": P1}, limit=10, offset=COUNT_CAP - 10)
    assert last.total_exact and last.total == MORE + 3 and len(last.rows) == 8
    # The page ends at the cap: counting one further still tells there is more.
    assert not beyond.total_exact and beyond.total > COUNT_CAP


def test_no_limit_counts_everything(crowded):
    with crowded.read() as tx:
        page = tx.list("task", {"project_id": P1})
    assert page.total_exact and page.total == len(page.rows) == MORE + 3


def test_fields_narrow_the_rows_but_not_the_digest(ws):
    def listed():
        with ws.read() as tx:
            rows = tx.list("task", {"project_id": P1}, fields=("title",)).rows
            return rows, tx.state_digest()

    rows, digest = listed()
    assert all(set(row) == {"id", "title"} for row in rows)
    with ws.write() as tx:
        tx.update("task", TASK_SPEC, {"props": {"estimate": 3}})  # a field the list did not hand back
    assert listed()[1] != digest
    with ws.read() as tx, pytest.raises(InvalidValue, match="colour"):
        tx.list("task", fields=("colour",))


def test_a_narrowed_row_decodes_the_json_it_keeps(ws):
    with ws.read() as tx:
        row = tx.list("task", {"project_id": P1}, fields=("props",), limit=1).rows[0]
    assert isinstance(row["props"], dict)


def test_a_page_that_ends_early_tells_the_exact_total(crowded):
    with crowded.read() as tx:
        tail = tx.list("task", {"project_id": P1}, limit=50, offset=MORE - 2)
        past = tx.list("task", {"project_id": P1}, limit=50, offset=MORE + 100)
        found = tx.search("task", "bulk", limit=50, offset=MORE - 1)
    assert tail.total_exact and tail.total == MORE + 3 and len(tail.rows) == 5
    assert past.total_exact and past.total == MORE + 3 and past.rows == []  # nothing on the page: counted
    assert found.total_exact and found.total == MORE and len(found.rows) == 1
