"""Loading workspace files, opening the default store, and the package surface."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from store_testing import P1, REPO, SMALL_WORKSPACE

import opgate.core.store as store_package
from opgate.core.store import (InvalidValue, NotAWorkspace, SQLiteStore, StoreError, default_path,
                               inspect_workspace, load_demo, open_store, reset_demo)
from opgate.core.store import _demo


def test_load_demo_reports_counts_and_keeps_ids(store):
    counts = load_demo(store, SMALL_WORKSPACE)
    assert counts["tasks"] == 4 and counts["edges"] == 4 and counts["task_documents"] == 3
    with store.read() as tx:
        assert tx.get("project", P1)["created_at"] == "2026-03-01T09:00:00Z"


def test_a_bad_row_names_where_it_is(store, tmp_path):
    data = json.loads(SMALL_WORKSPACE.read_text())
    data["tasks"][1]["colour"] = "red"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(InvalidValue) as caught:
        load_demo(store, bad)
    assert "tasks[1]" in "".join(caught.value.__notes__)
    assert store.dump()["projects"] == []  # all or nothing


def test_open_store_seeds_a_fresh_file_once(tmp_path, monkeypatch):
    monkeypatch.setattr(_demo, "demo_fixture_path", lambda: SMALL_WORKSPACE)
    path = tmp_path / "w.db"
    with open_store(path) as store, store.write() as tx:
        tx.delete("project", P1, cascade=True)
    with open_store(path) as store, store.read() as tx:
        assert tx.find("project", P1) is None  # emptied by its user, not refilled
    with reset_demo(path) as store, store.read() as tx:
        assert tx.find("project", P1) is not None


def test_open_store_without_demo_stays_empty(tmp_path, monkeypatch):
    monkeypatch.setattr(_demo, "demo_fixture_path", lambda: SMALL_WORKSPACE)
    path = tmp_path / "w.db"
    open_store(path, demo=False).close()
    with open_store(path) as store, store.read() as tx:
        assert tx.list("project").total == 0


def test_missing_demo_fixture_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(_demo, "demo_fixture_path", lambda: tmp_path / "absent.json")
    with pytest.raises(StoreError, match="demo=False"):
        open_store(tmp_path / "w.db")


def test_default_path_honours_xdg_data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    if sys.platform.startswith("linux"):
        assert default_path() == tmp_path / "opgate" / "workspace.db"


def test_repository_demo_fixture_loads_when_present(tmp_path):
    fixture = _demo.demo_fixture_path()
    if not Path(str(fixture)).is_file():
        pytest.skip("fixtures/demo_workspace.json is not written yet")
    with SQLiteStore(tmp_path / "demo.db") as store:
        counts = load_demo(store)
    assert counts["projects"] >= 1


def test_public_names_are_exported_on_purpose():
    loaded = {name for name in vars(store_package) if not name.startswith("_") and name not in {"annotations"}}
    assert sorted(store_package.__all__) == sorted(loaded | set(store_package._LAZY))  # the backend loads on first use
    assert all(getattr(store_package, name) is not None for name in store_package.__all__)


def test_core_store_imports_no_user_interface_and_no_stdlib_sqlite():
    code = (
        "import sys; sys.path.insert(0, {tests!r}); import store_testing; import opgate.core.store; "
        "bad = [m for m in ('sqlite3', 'textual', 'prompt_toolkit', 'rich') if m in sys.modules]; "
        "print(','.join(bad))"
    ).format(tests=str(REPO / "tests" / "store"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


@pytest.mark.parametrize("empty", ["", "   "])
def test_an_empty_path_is_refused_not_read_as_the_default(empty, tmp_path, monkeypatch):
    from opgate.core import Gateway

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for opener in (SQLiteStore, open_store, reset_demo):
        with pytest.raises(StoreError, match="empty"):
            opener(empty)
    with pytest.raises(ValueError, match="empty"):
        Gateway(db_path=empty)
    assert not (tmp_path / "data").exists()


def test_inspect_counts_what_a_reset_would_replace(tmp_path, monkeypatch):
    monkeypatch.setattr(_demo, "demo_fixture_path", lambda: SMALL_WORKSPACE)
    path = tmp_path / "w.db"
    assert inspect_workspace(path) is None
    open_store(path).close()
    held = inspect_workspace(path)
    assert held.counts["projects"] == 2 and held.counts["tasks"] == 4 and held.counts["edges"] == 4
    assert held.describe().startswith("2 projects")


def test_reset_is_in_place_and_seen_by_a_store_that_stays_open(tmp_path, monkeypatch):
    monkeypatch.setattr(_demo, "demo_fixture_path", lambda: SMALL_WORKSPACE)
    path = tmp_path / "w.db"
    with open_store(path) as live:
        with live.write() as tx:
            tx.delete("project", P1, cascade=True)
            tx.append_call_log({"op": "onto.project.delete", "ok": True})
        inode = path.stat().st_ino
        reset_demo(path).close()
        assert path.stat().st_ino == inode
        with live.read() as tx:
            assert tx.find("project", P1) is not None
            assert tx.recent_calls() == []  # the history of the old rows went with them
        with live.write() as tx:
            tx.insert("task", {"project_id": P1, "title": "After the reset"})
    with open_store(path) as store, store.read() as tx:
        assert tx.search("task", "After the reset").total == 1


def test_reset_refuses_an_sqlite_file_that_is_not_a_workspace(tmp_path):
    import apsw

    path = tmp_path / "other.db"
    conn = apsw.Connection(str(path))
    conn.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(NotAWorkspace, match="not an opgate workspace"):
        reset_demo(path)
    assert path.read_bytes() == before and sorted(tmp_path.iterdir()) == [path]
