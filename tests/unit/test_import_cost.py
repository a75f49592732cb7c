"""Each CLI command loads only what it uses; the built-in catalogue needs no schema check at start-up.

Measured in a fresh interpreter per command (``sys.modules`` after
``opgate.cli.main``), not by timing: bench/bench_cli.py has the CPU figures.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from opgate.core._builtin import builtin_catalog_loads
from opgate.core._schema_check import check_parameters

NEVER_IN_A_COMMAND_LINE = ("textual", "prompt_toolkit", "mcp", "httpx", "uvicorn", "starlette", "anyio", "sentence_transformers", "torch")
VALIDATION = ("jsonschema", "jsonschema_rs", "referencing")
STORE = ("apsw",)

CASES = [
    (["help"], NEVER_IN_A_COMMAND_LINE + VALIDATION + STORE + ("pygments",)),
    (["help", "onto.task.create"], NEVER_IN_A_COMMAND_LINE + VALIDATION + STORE),
    (["search", "create a task"], NEVER_IN_A_COMMAND_LINE + VALIDATION + STORE),
    (["exec", "onto.task.list"], NEVER_IN_A_COMMAND_LINE),
]


def _loaded_after(argv: list[str], data_home: str) -> set[str]:
    code = (
        "import contextlib, io, json, sys\n"
        "from opgate.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main({argv!r})\n"
        "print(json.dumps(sorted({name.split('.')[0] for name in sys.modules})))\n"
    )
    env = {"XDG_DATA_HOME": data_home, "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.splitlines()[-1]))


@pytest.mark.parametrize(("argv", "unwanted"), CASES, ids=[" ".join(argv) for argv, _ in CASES])
def test_a_command_loads_nothing_it_does_not_use(argv, unwanted, tmp_path):
    loaded = _loaded_after(argv, str(tmp_path))
    assert not loaded & set(unwanted), f"opgate {' '.join(argv)} loads {sorted(loaded & set(unwanted))}"


def test_the_builtin_schemas_pass_the_check_unchanged():
    """What lets build_registry skip checking the built-in catalogue (CatalogLoad.checked)."""
    loads = builtin_catalog_loads()
    assert all(load.checked for load in loads)
    for load in loads:
        for tool in load.tools:
            schema, findings = check_parameters(tool.parameters)
            assert findings == [] and schema == tool.parameters, tool.name
