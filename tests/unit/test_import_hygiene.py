"""The core never loads a user interface library, checked in a fresh interpreter per module."""

import pkgutil
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import opgate.core

UI_LIBRARIES = ("textual", "prompt_toolkit", "rich")
LINT_IMPORTS = Path(__file__).resolve().parents[1] / "lint_imports.py"


def _core_modules() -> list[str]:
    return ["opgate.core"] + [m.name for m in pkgutil.walk_packages(opgate.core.__path__, "opgate.core.")]


@pytest.mark.parametrize("module", _core_modules())
def test_core_module_imports_no_ui(module):
    code = f"import sys, {module}; print(','.join(m for m in {UI_LIBRARIES!r} if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"{module} loads {result.stdout.strip()}"


def test_import_linter_contracts_hold_on_the_installed_package():
    """Every contract in pyproject.toml is checked, against opgate as installed, and kept.

    Plain `lint-imports` in the repo cannot see opgate.core (it installs from core/)
    and stops with an error; tests/lint_imports.py lays the installed package out
    first. A contract that is broken, or not found, fails this test.
    """
    result = subprocess.run([sys.executable, str(LINT_IMPORTS)], capture_output=True, text=True, timeout=300)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    contracts = tomllib.loads((LINT_IMPORTS.parents[1] / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    assert len(contracts) >= 3
    for contract in contracts:
        assert re.search(rf"^{re.escape(contract['name'])} KEPT", output, re.MULTILINE), output
    assert f"Contracts: {len(contracts)} kept, 0 broken." in output, output
