"""Loading workspace files, opening the default store, and the package surface."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from store_testing import P1, REPO, SMALL_WORKSPACE

import opgate.core.store as store_package
from opgate.core.store import (InvalidValue, SQLiteStore, StoreError, default_path, load_demo,
                               open_store, reset_demo)
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
