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
