"""Each CLI command loads only what it uses; the built-in catalogue needs no schema check at start-up.

Measured in a fresh interpreter per command (``sys.modules`` after
``opgate.cli.main``), not by timing: bench/bench_cli.py has the CPU figures.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys

import pytest

from opgate.core._builtin import builtin_catalog_loads
from opgate.core._schema_check import check_parameters

NEVER_IN_A_COMMAND_LINE = (
    "textual", "prompt_toolkit", "mcp", "mcp_types", "pydantic", "httpx", "uvicorn", "starlette", "anyio", "psycopg",
    "sentence_transformers", "torch", "yaml",
    "importlib.metadata",  # only --version reads the installed version
    "opgate.mcp_server", "opgate.tui", "opgate.repl", "opgate.core.collection",
    # Start-up costs cut in session 7 (docs/performance.md): value classes on the start-up path are
    # core/_record.py's records, so neither dataclasses nor the inspect/ast/dis/tokenize it imports load;
    # user folders come from core/_user_dirs.py (no platformdirs, whose Unix module imports tempfile and
    # so shutil and random); the CLI's help formatter finds the terminal width without shutil (and the
    # zlib, bz2 and lzma shutil imports).
    "dataclasses", "inspect", "ast", "dis", "tokenize", "platformdirs", "tempfile", "shutil", "bz2", "lzma",
)
VALIDATION = ("jsonschema", "jsonschema_rs", "referencing", "opgate.core.exec._validation", "opgate.core.exec._dispatcher")
STORE = ("apsw", "opgate.core.store._sqlite_store", "opgate.core.handlers")
ROUTING = ("opgate.core.modes._router", "opgate.core.modes._export")
SEARCH = ("opgate.core.search", "opgate.core.discovery")
# Never read when the registry comes from the cache (as in these commands, after their first run).
CATALOG_READERS = ("opgate.core.catalog.openapi", "opgate.core.catalog._folders")
# The exec path's own modules: the gateway makes its executors and batch runner on first use.
EXEC_PATH = (
    "opgate.core.store", "opgate.core.executors.store", "opgate.core.exec._batch", "opgate.core.exec._handler",
    "opgate.core.exec._session_table", "concurrent.futures",
    "opgate.core.access._tokens", "opgate.core.access._rates",  # the HTTP server's and `opgate token`'s
)
RICH = ("rich",)  # a command printing JSON never renders, nor one printing an envelope or the root's help into a pipe
# jsonschema's format libraries: each loads on the first value of its format (core/_jsonschema.py), and listing tasks has none.
FORMAT_LIBRARIES = (
    "arrow", "dateutil", "isoduration", "rfc3987", "rfc3339_validator", "fqdn", "idna", "webcolors", "jsonpointer", "uri_template",
)
EVERY_COMMAND = ("tomllib",)  # the TOML reader is for an opgate.toml, and there is none here
# help and search find their package data beside their modules (jsonschema's metaschemas still use importlib.resources).
PACKAGE_DATA_FINDER = ("importlib.resources",)
# What only a web op or a help page uses: an exec of a store op loads neither.
WEB_AND_HELP_VIEWS = (
    "ssl", "opgate.core.handlers._web", "opgate.core.handlers._web_fetch", "opgate.core.handlers._web_text", "rich.table", "opgate.views._help",
)

# What help and search leave to other commands: fuzzy path hints (an unknown path only), random ids (secrets),
# and the call log's sweep (datetime).
HELP_EXTRAS = ("difflib", "secrets", "hmac", "datetime")

NEVER_IN_A_COMMAND_LINE += EVERY_COMMAND + FORMAT_LIBRARIES
# What an exec of a read with valid arguments never needs: jsonschema (the quick check vouches for them,
# core/exec/_quick_check.py), logging (nothing is logged), the write and web handler tables, the help
# service, secrets and uuid (ids come from os.urandom), the configuration checker (no opgate.toml) and
# importlib.resources (migrations and fixtures are read beside their modules).
A_VALID_READ = (
    "jsonschema", "referencing", "attrs", "attr", "rpds", "jsonschema_specifications", "opgate.core._jsonschema", "opgate.core.schema_validator",
    "logging", "opgate.core.handlers._write_table", "opgate.core.handlers._web_table", "opgate.core.help", "secrets", "uuid",
    "opgate.core.config._check", "opgate.core.store._workspace_check", "importlib.resources",
)

CASES = [
    (["help"], NEVER_IN_A_COMMAND_LINE + VALIDATION + STORE + ROUTING + SEARCH + CATALOG_READERS + EXEC_PATH + PACKAGE_DATA_FINDER + RICH + HELP_EXTRAS),  # into a pipe
    (["help", "onto.task.create"], NEVER_IN_A_COMMAND_LINE + VALIDATION + STORE + ROUTING + SEARCH + CATALOG_READERS + EXEC_PATH + PACKAGE_DATA_FINDER + RICH + HELP_EXTRAS),  # lines wrapped without rich
    (["help", "onto.task"], NEVER_IN_A_COMMAND_LINE + VALIDATION + STORE + ROUTING + SEARCH + CATALOG_READERS + EXEC_PATH + PACKAGE_DATA_FINDER + RICH + HELP_EXTRAS),
    (["help", "onto.task.list"], NEVER_IN_A_COMMAND_LINE + VALIDATION + STORE + ROUTING + SEARCH + CATALOG_READERS + EXEC_PATH + PACKAGE_DATA_FINDER + RICH + HELP_EXTRAS),
    (["help", "--json"], NEVER_IN_A_COMMAND_LINE + VALIDATION + STORE + ROUTING + SEARCH + CATALOG_READERS + EXEC_PATH + PACKAGE_DATA_FINDER + RICH),
    (["search", "mark task done"], NEVER_IN_A_COMMAND_LINE + VALIDATION + STORE + ROUTING + CATALOG_READERS + EXEC_PATH + PACKAGE_DATA_FINDER + RICH + HELP_EXTRAS),  # output is a pipe: JSON
    (["exec", "onto.task.list"], NEVER_IN_A_COMMAND_LINE + ROUTING + SEARCH + CATALOG_READERS + WEB_AND_HELP_VIEWS + RICH + A_VALID_READ),  # into a pipe
    (["exec", "onto.task.list", "--json"], NEVER_IN_A_COMMAND_LINE + ROUTING + SEARCH + CATALOG_READERS + WEB_AND_HELP_VIEWS + RICH + A_VALID_READ),
    (["exec", "onto.task.list", "limit=5", "state_key=todo", "project_id=10000000-0000-4000-8000-000000000001"],
     NEVER_IN_A_COMMAND_LINE + ROUTING + SEARCH + CATALOG_READERS + WEB_AND_HELP_VIEWS + RICH + A_VALID_READ),
]


def _loaded_after(argv: list[str], data_home: str) -> set[str]:
    code = (
        "import contextlib, io, json, sys\n"
        "from opgate.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main({argv!r})\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    env = {"XDG_DATA_HOME": data_home, "XDG_CACHE_HOME": data_home, "PATH": "/usr/bin:/bin"}
    # The first run makes the workspace and caches the registry (reading the catalogues); the second is measured.
    warm = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert warm.returncode == 0, warm.stderr
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.splitlines()[-1]))  # full names: a package and each submodule


@functools.cache
def _loaded_by_the_interpreter() -> frozenset[str]:
    """What this environment's start-up loads before any command (a site .pth may import certifi and its readers)."""
    code = "import json, sys; print(json.dumps(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    return frozenset(json.loads(result.stdout.splitlines()[-1]))


@pytest.mark.parametrize(("argv", "unwanted"), CASES, ids=[" ".join(argv) for argv, _ in CASES])
def test_a_command_loads_nothing_it_does_not_use(argv, unwanted, tmp_path):
    loaded = _loaded_after(argv, str(tmp_path)) - _loaded_by_the_interpreter()
    found = sorted(name for name in unwanted if name in loaded or any(module.startswith(name + ".") for module in loaded))
    assert not found, f"opgate {' '.join(argv)} loads {found}"


def test_the_builtin_schemas_pass_the_check_unchanged():
    """What lets build_registry skip checking the built-in catalogue (CatalogLoad.checked)."""
    loads = builtin_catalog_loads()
    assert all(load.checked for load in loads)
    for load in loads:
        for tool in load.tools:
            schema, findings = check_parameters(tool.parameters)
            assert findings == [] and schema == tool.parameters, tool.name


def test_a_warm_search_stems_no_word_list(tmp_path):
    """The related-word table comes from the search index cache; the speller's deletion table waits for a typo."""
    code = (
        "import contextlib, io, sys\n"
        "from opgate.cli import main\n"
        "from opgate.core.search._related import default_related_terms\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['search', 'mark task done'])\n"
        "print(default_related_terms.cache_info().currsize)\n"
    )
    env = {"XDG_DATA_HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env, check=False) for _ in range(2)]
    assert all(run.returncode == 0 for run in runs), runs[-1].stderr
    assert runs[0].stdout.split()[0] == "1"  # the first run builds the index, reading the groups
    assert runs[1].stdout.split()[0] == "0"
