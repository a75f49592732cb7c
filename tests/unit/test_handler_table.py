"""The built-in handler table loads each area's table when a lookup reaches it, and is the same table as before."""

from __future__ import annotations

import subprocess
import sys

from opgate.core._builtin import builtin_catalog_loads
from opgate.core.handlers import builtin_handlers
from opgate.core.handlers._read_table import HANDLERS as READS
from opgate.core.handlers._web_table import HANDLERS as WEB
from opgate.core.handlers._write_table import HANDLERS as WRITES


def test_the_table_is_every_area_joined_without_overlap():
    table = builtin_handlers()
    assert len(table) == len(READS) + len(WRITES) + len(WEB)
    assert dict(table) == {**READS, **WRITES, **WEB}
    ops = {tool.op or tool.name for load in builtin_catalog_loads() for tool in load.tools}
    assert len(ops) == len(table)
    assert table.get("no.such.op") is None and "no.such.op" not in table


def test_a_read_lookup_loads_only_the_read_table():
    code = (
        "import sys\n"
        "from opgate.core.handlers import builtin_handlers\n"
        "table = builtin_handlers()\n"
        "assert table['onto.task.list'] is not None\n"
        "print(sorted(m for m in sys.modules if m.startswith('opgate.core.handlers._') and m.endswith('_table')))\n"
        "table['onto.task.create']\n"
        "print(sorted(m for m in sys.modules if m.startswith('opgate.core.handlers._') and m.endswith('_table')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "['opgate.core.handlers._read_table']", "['opgate.core.handlers._read_table', 'opgate.core.handlers._write_table']",
    ]


def test_lookups_from_many_threads_never_see_the_tables_half_loaded(monkeypatch):
    """The HTTP server's first calls arrive together: each must find its op, even while another thread loads a table."""
    import threading
    import time

    import opgate.core.handlers as handlers

    real_import = handlers.import_module

    def slow_import(name, package=None):
        time.sleep(0.05)  # a first import takes a while; the other threads run meanwhile
        return real_import(name, package)

    monkeypatch.setattr(handlers, "import_module", slow_import)
    table = builtin_handlers()
    start = threading.Barrier(8)
    found: list[object] = []
    failures: list[BaseException] = []

    def look_up() -> None:
        start.wait()
        try:
            found.append(table["onto.task.create"])
        except BaseException as exc:  # noqa: BLE001 - any failure is the finding
            failures.append(exc)

    threads = [threading.Thread(target=look_up) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures and len(found) == 8 and all(handler is WRITES["onto.task.create"] for handler in found)


def _write_table_import_fails_once(monkeypatch, handlers) -> list[str]:
    """Make the first import of the write table fail, as a dependency broken for a moment would; the names that failed."""
    real_import = handlers.import_module
    failed: list[str] = []

    def failing_once(name, package=None):
        if name == "._write_table" and not failed:
            failed.append(name)
            raise ImportError("a dependency of the write handlers failed to import")
        return real_import(name, package)

    monkeypatch.setattr(handlers, "import_module", failing_once)
    return failed


def test_a_table_whose_import_failed_is_imported_again(monkeypatch):
    """A failed import (a dependency broken for a moment) fails that lookup only; its ops are not lost for the process."""
    import opgate.core.handlers as handlers

    failed = _write_table_import_fails_once(monkeypatch, handlers)
    table = builtin_handlers()
    try:
        table["onto.task.create"]
    except ImportError:
        pass
    assert failed == ["._write_table"]
    assert table["onto.task.create"] is WRITES["onto.task.create"]
    assert table.get("onto.task.create") is WRITES["onto.task.create"] and dict(table) == {**READS, **WRITES, **WEB}


def test_a_failed_table_import_is_one_clean_envelope_and_the_next_call_runs(tmp_path, monkeypatch):
    import opgate.core.handlers as handlers
    from opgate.core import Gateway

    failed = _write_table_import_fails_once(monkeypatch, handlers)
    gateway = Gateway(db_path=tmp_path / "w.db", allow_write=True)
    try:
        first = gateway.exec("onto.task.create", {"project_id": "10000000-0000-4000-8000-000000000001", "title": "After a failed import"})
        assert first["ok"] is False and first["error"]["code"] == "INTERNAL" and "Traceback" not in str(first)
        second = gateway.exec("onto.task.create", {"project_id": "10000000-0000-4000-8000-000000000001", "title": "After a failed import"})
        assert second["ok"] is True, second
    finally:
        gateway.close()
