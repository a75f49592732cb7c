"""``opgate stats`` reads the workspace every other command uses ($OPGATE_DB, a PostgreSQL URL), and a --since
far in the past or future is an answer or a clear error, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from opgate.core import Gateway


def _stats(*words: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "opgate", *words], capture_output=True, text=True, timeout=120, env={**os.environ, **(env or {})})


def _one_call(location) -> None:
    gateway = Gateway(db_path=location)
    try:
        assert gateway.exec("onto.project.list", {})["ok"]
    finally:
        gateway.close()


def test_stats_reads_any_workspace_the_others_take(tmp_path, new_workspace):
    """A postgresql:// URL was refused as 'no workspace database at postgresql://...', never opened."""
    location = new_workspace(tmp_path)
    _one_call(location)
    shown = _stats("--db", str(location), "stats", "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["entries"] == 1


def test_stats_reads_the_workspace_opgate_db_names(tmp_path):
    """Every command takes $OPGATE_DB when --db is not given; stats read the default workspace instead."""
    db = tmp_path / "elsewhere.db"
    _one_call(db)
    env = {"OPGATE_DB": str(db), "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    shown = _stats("stats", "--json", env=env)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["entries"] == 1


@pytest.mark.parametrize("since", ["99999999999d", "1000000w", "3000000d"])
def test_a_window_past_the_calendar_is_an_error_not_a_traceback(tmp_path, since):
    db = tmp_path / "ws.db"
    _one_call(db)
    shown = _stats("--db", str(db), "stats", "--since", since)
    assert shown.returncode == 2 and "Traceback" not in shown.stderr and "--since" in shown.stderr, shown.stderr


def test_a_date_before_the_year_1000_counts_every_call(tmp_path):
    """The stamp was written '999-01-01...', which sorts after '2026-...', so no call was 'since' then."""
    db = tmp_path / "ws.db"
    _one_call(db)
    shown = _stats("--db", str(db), "stats", "--json", "--since", "0999-01-01")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["entries"] == 1


def test_one_call_is_counted_in_the_singular(tmp_path):
    db = tmp_path / "ws.db"
    _one_call(db)
    shown = _stats("--db", str(db), "stats")
    assert shown.returncode == 0 and "1 call in 1 session " in shown.stdout and "1 calls" not in shown.stdout, shown.stdout
