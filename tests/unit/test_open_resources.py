"""The session guard (tests/open_resources.py): a test that leaves a gateway or a PostgreSQL pool open fails the session, by name.

Each case runs a small test file in a pytest of its own, under the guard alone.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]

CONFTEST = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
from open_resources import _nothing_left_open, closed_after, pytest_runtest_protocol
"""


def _run_session(folder: Path, test_file: str, **env: str) -> subprocess.CompletedProcess:
    (folder / "conftest.py").write_text(CONFTEST)
    (folder / "test_inner.py").write_text(textwrap.dedent(test_file))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(folder), str(folder / "test_inner.py")],
        capture_output=True, text=True, cwd=folder, timeout=300,
        env={**os.environ, "XDG_DATA_HOME": str(folder / "xdg"), "OPGATE_CACHE_DIR": str(folder / "cache"), **env},
    )


def test_a_gateway_left_open_fails_the_session_and_names_its_test(tmp_path):
    done = _run_session(tmp_path, """
        from opgate.core import Gateway

        KEPT = []

        def test_closes_its_gateway(tmp_path, closed_after):
            closed_after(Gateway(db_path=tmp_path / "closed.db")).help("")

        def test_leaves_an_idle_gateway_open(tmp_path):
            KEPT.append(Gateway(db_path=tmp_path / "open.db"))
    """)
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "2 passed, 1 error" in out
    assert "1 left open" in out
    assert "a call log (a Gateway never closed) made in test_inner.py::test_leaves_an_idle_gateway_open" in out
    assert "made in test_inner.py::test_closes_its_gateway" not in out


def test_a_session_that_closes_everything_passes(tmp_path):
    done = _run_session(tmp_path, """
        from opgate.core import Gateway

        def test_closes_its_gateway(tmp_path, closed_after):
            closed_after(Gateway(db_path=tmp_path / "closed.db")).help("")

        def test_closes_another(tmp_path):
            gateway = Gateway(db_path=tmp_path / "other.db")
            try:
                gateway.help("")
            finally:
                gateway.close()
    """)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "left open" not in done.stdout


def test_a_postgresql_store_left_open_fails_the_session_and_names_its_test(tmp_path, pg_cluster):
    url = pg_cluster.new_database()
    try:
        done = _run_session(tmp_path, """
            import os
            from opgate.core.store._locate import connect_store

            KEPT = []

            def test_closes_its_store():
                with connect_store(os.environ["WORKSPACE_URL"]) as store:
                    store.schema_version

            def test_leaves_its_store_open():
                KEPT.append(connect_store(os.environ["WORKSPACE_URL"]))
        """, WORKSPACE_URL=url)
    finally:
        pg_cluster.drop(url)
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "a PostgreSQL pool (a store never closed) made in test_inner.py::test_leaves_its_store_open" in out
    assert "made in test_inner.py::test_closes_its_store" not in out


def test_a_gateway_refused_at_construction_leaves_no_call_log_open(tmp_path):
    # A refused ranker or context raised after the call log had opened: the log stayed in the product's open set.
    import pytest

    from opgate.core import Gateway
    from opgate.core.exec._telemetry import _OPEN

    before = set(_OPEN)
    refusals = []
    for options in ({"search": "magic"}, {"context": "no-such-context"}):
        with pytest.raises(ValueError) as refused:
            Gateway(db_path=tmp_path / "w.db", **options)
        refusals.append(refused)  # its traceback holds the half-made gateway, as a caller's would
    assert set(_OPEN) - before == set()
