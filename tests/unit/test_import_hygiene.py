"""The core never loads a user interface library, checked in a fresh interpreter per module."""

import pkgutil
import subprocess
import sys

import pytest

import opgate.core

UI_LIBRARIES = ("textual", "prompt_toolkit", "rich")


def _core_modules() -> list[str]:
    return ["opgate.core"] + [m.name for m in pkgutil.walk_packages(opgate.core.__path__, "opgate.core.")]


@pytest.mark.parametrize("module", _core_modules())
def test_core_module_imports_no_ui(module):
    code = f"import sys, {module}; print(','.join(m for m in {UI_LIBRARIES!r} if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"{module} loads {result.stdout.strip()}"


def test_import_linter_contract_holds():
    result = subprocess.run([sys.executable, "-m", "importlinter.cli", "--no-cache"], capture_output=True, text=True, timeout=120)
    if "No module named" in result.stderr:
        result = subprocess.run(["lint-imports", "--no-cache"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
